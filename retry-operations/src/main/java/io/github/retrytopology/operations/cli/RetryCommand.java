package io.github.retrytopology.operations.cli;

import com.rabbitmq.client.Connection;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.decision.Durations;
import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.problem.InvalidSpecException;
import io.github.retrytopology.operations.broker.BrokerAccess;
import io.github.retrytopology.operations.internal.BrokerMessages;
import io.github.retrytopology.runtime.parkinglot.Failure;
import io.github.retrytopology.runtime.parkinglot.FailureGroup;
import io.github.retrytopology.runtime.parkinglot.FailureGroups;
import io.github.retrytopology.runtime.parkinglot.ParkedMessage;
import io.github.retrytopology.runtime.parkinglot.ParkingLot;
import io.github.retrytopology.runtime.parkinglot.ReplayFilter;
import io.github.retrytopology.runtime.parkinglot.ReplayOptions;
import io.github.retrytopology.runtime.parkinglot.ReplayReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * The command line, for a person on call and for deployment pipelines: the parking-lot tools, and plan and
 * apply.
 *
 * <pre>
 * java -jar retry-runtime-cli.jar --spec retry.yml list cdn-purge
 * java -jar retry-runtime-cli.jar --spec retry.yml groups cdn-purge
 * java -jar retry-runtime-cli.jar --spec retry.yml replay cdn-purge --exception IOException --dry-run
 * java -jar retry-runtime-cli.jar --spec retry.yml replay cdn-purge --group 3f9a0c1d2e4b5a69 --rate 20
 * java -jar retry-runtime-cli.jar --spec retry.yml purge cdn-purge --yes
 * java -jar retry-runtime-cli.jar --spec retry.yml plan [--json] [--adoption retry.adoption.json]
 * java -jar retry-runtime-cli.jar --spec retry.yml apply [--prune] [--migrate] [--adoption retry.adoption.json [--delete-old]]
 * java -jar retry-runtime-cli.jar --spec retry.yml console [--port 15680] [--read-only]
 * java -jar retry-runtime-cli.jar adopt --vhost shop [--definitions definitions.json] [--out retry.yml] [--package P]
 * </pre>
 *
 * It parses its arguments and calls {@link ParkingLot}, {@link io.github.retrytopology.operations.plan.TopologyPlanner}
 * or {@link io.github.retrytopology.operations.adopt.Adopter}; nothing more. Exit codes: {@value #OK} done or in
 * sync, {@value #DRIFT} drift (plan, apply), refused (purge) or a draft with something listed (adopt),
 * {@value #ERROR} failed or misused.
 */
@Command(name = "retry", mixinStandardHelpOptions = true, version = "retry-runtime 0.1.0",
        description = "Lists, replays and purges the parking lots of the services of a retry.yml; plans and applies "
                + "its topology on a broker; drafts the retry.yml of a retry topology a virtual host already runs.",
        subcommands = {RetryCommand.ListCommand.class, RetryCommand.GroupsCommand.class, RetryCommand.ReplayCommand.class,
            RetryCommand.PurgeCommand.class, PlanCommand.class, ApplyCommand.class, ConsoleCommand.class,
            AdoptCommand.class},
        exitCodeOnExecutionException = RetryCommand.ERROR, exitCodeOnInvalidInput = RetryCommand.ERROR)
public final class RetryCommand implements Callable<Integer> {

    /** Done, or in sync. */
    public static final int OK = 0;
    /** Failed, or misused. */
    public static final int ERROR = 1;
    /** Not in sync (plan, apply), refused (purge without --yes), or a draft with something listed (adopt). */
    public static final int DRIFT = 2;

    private static final int BODY_PREVIEW = 200;

    @Option(names = "--uri", split = ",", paramLabel = "URI",
            defaultValue = "${env:RABBITMQ_URI:-amqp://guest:guest@localhost:5672}",
            description = "AMQP URI of the broker, repeatable (or comma-separated) for the nodes of a cluster, tried in "
                    + "order; without a virtual host in its path, the spec's is used (default: $RABBITMQ_URI, else "
                    + "amqp://guest:guest@localhost:5672).")
    List<String> uris;

    @Option(names = "--management-uri", split = ",", paramLabel = "URI",
            defaultValue = "${env:RABBITMQ_MANAGEMENT_URI}",
            description = "Management API of the broker, for plan, apply and adopt; repeatable (or comma-separated), "
                    + "tried in order (default: $RABBITMQ_MANAGEMENT_URI, else http://HOST:15672 for each HOST of --uri, "
                    + "with its credentials). HTTPS uses the JVM's trust store (-Djavax.net.ssl.trustStore=...).")
    List<String> managementUris;

    @Option(names = "--username", defaultValue = "${env:RABBITMQ_USERNAME}",
            description = "The user, instead of the URIs' (default: $RABBITMQ_USERNAME).")
    String username;

    @Option(names = "--password", arity = "0..1", interactive = true, defaultValue = "${env:RABBITMQ_PASSWORD}",
            description = "Its password; --password alone asks for it (default: $RABBITMQ_PASSWORD).")
    String password;

    @Option(names = "--spec", defaultValue = "retry.yml", description = "The retry.yml (default: ${DEFAULT-VALUE}); "
            + "adopt writes one instead, with its --out.")
    Path spec;

    Clock clock = Clock.systemUTC();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    /** Runs the command line and exits with its code: 0 done or in sync, 1 failed or misused, 2 drift or refused. */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line, for embedding or testing. */
    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new RetryCommand());
        commandLine.registerConverter(Duration.class, Durations::parse);
        // Each subcommand takes --help (and --version) too, and answers it before it asks for its parameters.
        commandLine.getSubcommands().values()
                .forEach(subcommand -> subcommand.getCommandSpec().exitCodeOnInvalidInput(ERROR).mixinStandardHelpOptions(true));
        commandLine.setExecutionExceptionHandler((e, line, result) -> {
            line.getErr().println("retry: " + message(e));
            return ERROR;
        });
        return commandLine;
    }

    @Override
    public Integer call() {
        command.commandLine().usage(command.commandLine().getOut());
        return 0;
    }

    private static String message(Exception e) {
        if (e instanceof NoSuchFileException missing) {
            return "no such file: " + missing.getFile();
        }
        return e.getMessage() == null ? BrokerMessages.of(e) : e.getMessage();
    }

    /** The spec, in the virtual host of the first --uri's path if it names one; {@code ""} is none. */
    RetrySpec loadSpec() throws IOException {
        RetrySpec retrySpec;
        try {
            retrySpec = Specs.load(spec);
        } catch (InvalidSpecException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        Optional<String> vhost = uriVhost();
        return vhost.map(retrySpec::inVhost).orElse(retrySpec);
    }

    /**
     * The virtual host the URIs name in their paths, if they do: the nodes of one cluster share their virtual
     * hosts, so URIs that name different ones (or some one and some none) are a mistake.
     */
    Optional<String> uriVhost() {
        List<Optional<String>> named = BrokerAccess.uris(uris, "AMQP").stream().map(RetryCommand::vhost).distinct()
                .toList();
        if (named.size() > 1) {
            throw new IllegalArgumentException("the --uri values name different virtual hosts ("
                    + named.stream().map(vhost -> vhost.map(name -> "'" + name + "'").orElse("none"))
                            .collect(Collectors.joining(", "))
                    + "); the nodes of a cluster share theirs: name the same one in every URI, or none for the spec's");
        }
        return named.isEmpty() ? Optional.empty() : named.get(0);
    }

    private static Optional<String> vhost(URI uri) {
        String path = uri.getRawPath();
        if (path == null || path.length() <= 1) {
            return Optional.empty();
        }
        return Optional.of(URLDecoder.decode(path.substring(1).replace("+", "%2B"), StandardCharsets.UTF_8));
    }

    /** How to reach the broker, from the options; the credentials stay out of every message. */
    BrokerAccess access() {
        return BrokerAccess.of(managementUris == null ? List.of() : managementUris, uris, Optional.ofNullable(username),
                Optional.ofNullable(password));
    }

    /** Runs an action against a service's parking lot, with a connection opened and closed around it. */
    private <T> T withParkingLot(String serviceName, ParkingLotAction<T> action) throws Exception {
        RetrySpec retrySpec = loadSpec();
        Service service = retrySpec.service(serviceName);
        try (Connection connection = connect(retrySpec.vhost())) {
            return action.run(ParkingLot.of(connection, service, clock));
        }
    }

    private Connection connect(String vhost) throws IOException {
        try {
            return access().connect(vhost, "parking-lot");
        } catch (IOException e) {
            throw new IOException("cannot connect to virtual host '" + vhost + "': " + BrokerMessages.of(e), e);
        }
    }

    @FunctionalInterface
    private interface ParkingLotAction<T> {
        T run(ParkingLot parkingLot) throws IOException, TimeoutException;
    }

    PrintWriter out() {
        return command.commandLine().getOut();
    }

    private void print(ParkedMessage message, int number) {
        PrintWriter out = out();
        Instant now = clock.instant();
        String when = message.parkedAt().map(at -> {
            Duration age = Duration.between(at, now).truncatedTo(ChronoUnit.SECONDS);
            return "parked " + at + " (" + Durations.format(age.isNegative() ? Duration.ZERO : age) + " ago)";
        }).orElse("parked at an unknown time");
        out.printf("#%d  %s  %s: %s%n", number, when, message.reason().map(ParkReason::id)
                .or(message::brokerReason).orElse("unknown"), message.detail());
        if (message.copies() > 1) {
            out.printf("    %d copies of this message and attempt are parked (twins); a replay sends one%n",
                    message.copies());
        }
        out.printf("    routing key: %s   message id: %s   attempts: %d   replays: %d%n",
                message.routingKey().orElse("?"), message.properties().messageId() == null ? "-"
                        : message.properties().messageId(), message.attempts(), message.headers().replays());
        message.exception().ifPresent(exception -> out.printf("    exception: %s: %s%n", exception,
                message.exceptionMessage().orElse("")));
        for (String failure : message.failures()) {
            out.printf("      %s%n", failure);
        }
        out.printf("    body: %s%n", preview(message));
    }

    private static String preview(ParkedMessage message) {
        byte[] body = message.body();
        String contentType = message.properties().contentType();
        String type = contentType == null ? "" : ", " + contentType;
        try {
            String text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(body)).toString();
            String shown = text.length() > BODY_PREVIEW ? text.substring(0, BODY_PREVIEW) + "…" : text;
            return shown.replace("\n", "\\n") + " (" + body.length + " bytes" + type + ")";
        } catch (CharacterCodingException binary) {
            return "<binary, " + body.length + " bytes" + type + ">";
        }
    }

    @Command(name = "list", description = "Shows the parked messages of a service, leaving them parked.")
    static final class ListCommand implements Callable<Integer> {
        @ParentCommand
        RetryCommand parent;

        @Parameters(paramLabel = "SERVICE", description = "The service, as retry.yml names it.")
        String service;

        @Option(names = "--limit", defaultValue = "20", description = "Show at most this many (default: ${DEFAULT-VALUE}).")
        int limit;

        @Override
        public Integer call() throws Exception {
            return parent.withParkingLot(service, parkingLot -> {
                long count = parkingLot.count();
                List<ParkedMessage> messages = parkingLot.list(limit);
                parent.out().printf("%s: %d parked%s%n", parkingLot.queue(), count,
                        count > messages.size() ? ", showing " + messages.size() : "");
                for (int i = 0; i < messages.size(); i++) {
                    parent.print(messages.get(i), i + 1);
                }
                return 0;
            });
        }
    }

    @Command(name = "groups", description = "Shows the parked messages of a service grouped by failure (exception, "
            + "message with numbers and ids masked, park reason), leaving them parked.")
    static final class GroupsCommand implements Callable<Integer> {
        @ParentCommand
        RetryCommand parent;

        @Parameters(paramLabel = "SERVICE", description = "The service, as retry.yml names it.")
        String service;

        @Option(names = "--max-scan", defaultValue = "200000", paramLabel = "N",
                description = "Read at most this many parked messages (default: ${DEFAULT-VALUE}).")
        long maxScan;

        @Override
        public Integer call() throws Exception {
            return parent.withParkingLot(service, parkingLot -> {
                FailureGroups read = parkingLot.groups(maxScan);
                PrintWriter out = parent.out();
                out.printf("%s: %d parked in %d groups%s%n", parkingLot.queue(), read.parked(), read.groups().size(),
                        read.complete() ? "" : " (grouped the first " + read.scanned() + ")");
                for (FailureGroup group : read.groups()) {
                    Failure failure = group.failure();
                    out.printf("%s  %6d  %s: %s  [%s]%n", group.key(), group.count(),
                            failure.exception().orElse("(no exception)"), failure.message().orElse(""),
                            failure.reason().orElse("unknown"));
                    out.printf("                    parked %s to %s%n", group.first().map(Object::toString).orElse("?"),
                            group.last().map(Object::toString).orElse("?"));
                }
                return 0;
            });
        }
    }

    @Command(name = "replay", description = "Sends parked messages back to their service's own queue, "
            + "their attempts reset.")
    static final class ReplayCommand implements Callable<Integer> {
        @ParentCommand
        RetryCommand parent;

        @Parameters(paramLabel = "SERVICE", description = "The service, as retry.yml names it.")
        String service;

        @Option(names = "--exception", description = "Only messages whose last failure is of this class "
                + "(binary or simple name).")
        String exception;

        @Option(names = "--routing-key", description = "Only messages whose routing key matches this topic pattern.")
        String routingKey;

        @Option(names = "--older-than", description = "Only messages parked at least this long ago, such as 10m.")
        Duration olderThan;

        @Option(names = "--newer-than", description = "Only messages parked less than this long ago, such as 2h.")
        Duration newerThan;

        @Option(names = "--group", paramLabel = "KEY", description = "Only messages of this failure group, by the key "
                + "the groups command shows.")
        String group;

        @Option(names = "--id", paramLabel = "ID", split = ",", description = "Only these messages, by message id; "
                + "repeatable, or comma-separated.")
        List<String> ids;

        @Option(names = "--limit", defaultValue = "100", description = "Replay at most this many (default: ${DEFAULT-VALUE}).")
        int limit;

        @Option(names = "--rate", paramLabel = "PER_SECOND", description = "Replay at most this many messages a second "
                + "(default: as fast as the broker confirms them).")
        Double rate;

        @Mixin
        OperatorOption operator;

        @Option(names = "--dry-run", description = "Show what would be replayed, and replay nothing.")
        boolean dryRun;

        @Override
        public Integer call() throws Exception {
            ReplayFilter filter = ReplayFilter.all();
            if (exception != null) {
                filter = filter.exception(exception);
            }
            if (routingKey != null) {
                filter = filter.routingKey(routingKey);
            }
            if (olderThan != null) {
                filter = filter.olderThan(olderThan);
            }
            if (newerThan != null) {
                filter = filter.newerThan(newerThan);
            }
            if (group != null) {
                filter = filter.failure(group);
            }
            if (ids != null) {
                filter = filter.ids(ids);
            }
            ReplayOptions options = ReplayOptions.limit(limit).dryRun(dryRun)
                    .replayedBy(operator.name + " (retry replay)");
            if (rate != null) {
                options = options.rate(rate);
            }
            ReplayFilter chosen = filter;
            ReplayOptions how = options;
            return parent.withParkingLot(service, parkingLot -> {
                ReplayReport report = parkingLot.replay(chosen, how);
                if (report.dryRun()) {
                    parent.out().printf("dry run: would replay %d of %d parked messages looked at%n",
                            report.matched(), report.scanned());
                    for (int i = 0; i < report.preview().size(); i++) {
                        parent.print(report.preview().get(i), i + 1);
                    }
                } else {
                    parent.out().printf("replayed %d of %d parked messages looked at to %s%s%n",
                            report.replayed(), report.scanned(), service, report.twinsDropped() == 0 ? ""
                                    : "; dropped " + report.twinsDropped() + " twin copies of messages it replayed");
                }
                return 0;
            });
        }
    }

    @Command(name = "purge", description = "Deletes every parked message of a service, for good.")
    static final class PurgeCommand implements Callable<Integer> {
        @ParentCommand
        RetryCommand parent;

        @Parameters(paramLabel = "SERVICE", description = "The service, as retry.yml names it.")
        String service;

        @Option(names = "--yes", description = "Confirms that the messages are to be deleted.")
        boolean yes;

        @Override
        public Integer call() throws Exception {
            return parent.withParkingLot(service, parkingLot -> {
                if (!yes) {
                    parent.command.commandLine().getErr().printf("purge would delete %d parked messages of %s for "
                            + "good; run it again with --yes%n", parkingLot.count(), service);
                    return 2;
                }
                parent.out().printf("purged %d parked messages of %s%n", parkingLot.purge(), service);
                return 0;
            });
        }
    }
}
