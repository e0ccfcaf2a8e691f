package io.github.retrytopology.runtime.parkinglot;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.github.retrytopology.model.Durations;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.model.read.InvalidSpecException;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * The parking-lot tools on the command line, for a person on call:
 *
 * <pre>
 * java -jar retry-runtime-cli.jar --spec retry.yml list cdn-purge
 * java -jar retry-runtime-cli.jar --spec retry.yml replay cdn-purge --exception IOException --dry-run
 * java -jar retry-runtime-cli.jar --spec retry.yml purge cdn-purge --yes
 * </pre>
 *
 * It parses its arguments and calls {@link ParkingLot}; nothing more.
 */
@Command(name = "parking-lot", mixinStandardHelpOptions = true, version = "retry-runtime parking-lot 0.1.0",
        description = "Lists, replays and purges the parking lots of the services of a retry.yml.",
        subcommands = {ParkingLotCommand.ListCommand.class, ParkingLotCommand.ReplayCommand.class,
            ParkingLotCommand.PurgeCommand.class},
        exitCodeOnExecutionException = 1)
public final class ParkingLotCommand implements Callable<Integer> {

    private static final int BODY_PREVIEW = 200;

    @Option(names = "--uri", defaultValue = "${env:RABBITMQ_URI:-amqp://guest:guest@localhost:5672}",
            description = "AMQP URI of the broker; without a virtual host in its path, the spec's is used "
                    + "(default: $RABBITMQ_URI, else ${DEFAULT-VALUE}).")
    String uri;

    @Option(names = "--spec", defaultValue = "retry.yml", description = "The retry.yml (default: ${DEFAULT-VALUE}).")
    Path spec;

    Clock clock = Clock.systemUTC();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    /** Runs the command line and exits with its code: 0 done, 1 failed, 2 refused or misused. */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line, for embedding or testing. */
    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new ParkingLotCommand());
        commandLine.registerConverter(Duration.class, Durations::parse);
        commandLine.setExecutionExceptionHandler((e, line, result) -> {
            line.getErr().println("parking-lot: " + message(e));
            return 1;
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
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    /** Runs an action against a service's parking lot, with a connection opened and closed around it. */
    private <T> T withParkingLot(String serviceName, ParkingLotAction<T> action) throws Exception {
        RetrySpec retrySpec;
        try {
            retrySpec = RetrySpec.load(spec);
        } catch (InvalidSpecException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        Service service = retrySpec.service(serviceName);
        ConnectionFactory factory = new ConnectionFactory();
        try {
            factory.setUri(uri);
            String path = new URI(uri).getRawPath();
            if (path == null || path.isEmpty()) {
                factory.setVirtualHost(retrySpec.vhost());
            }
        } catch (URISyntaxException | GeneralSecurityException e) {
            throw new IllegalArgumentException("--uri " + uri + " is not an AMQP URI: " + e.getMessage(), e);
        }
        factory.setAutomaticRecoveryEnabled(false);
        try (Connection connection = factory.newConnection("parking-lot")) {
            return action.run(ParkingLot.of(connection, service, clock));
        }
    }

    @FunctionalInterface
    private interface ParkingLotAction<T> {
        T run(ParkingLot parkingLot) throws IOException, TimeoutException;
    }

    private PrintWriter out() {
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
                message.routingKey().orElse("?"), message.properties().getMessageId() == null ? "-"
                        : message.properties().getMessageId(), message.attempts(), message.headers().replays());
        message.exception().ifPresent(exception -> out.printf("    exception: %s: %s%n", exception,
                message.exceptionMessage().orElse("")));
        for (String failure : message.failures()) {
            out.printf("      %s%n", failure);
        }
        out.printf("    body: %s%n", preview(message));
    }

    private static String preview(ParkedMessage message) {
        byte[] body = message.body();
        String type = message.properties().getContentType() == null ? "" : ", " + message.properties().getContentType();
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
        ParkingLotCommand parent;

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

    @Command(name = "replay", description = "Sends parked messages back to their service's own queue, "
            + "their attempts reset.")
    static final class ReplayCommand implements Callable<Integer> {
        @ParentCommand
        ParkingLotCommand parent;

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

        @Option(names = "--limit", defaultValue = "100", description = "Replay at most this many (default: ${DEFAULT-VALUE}).")
        int limit;

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
            ReplayFilter chosen = filter;
            return parent.withParkingLot(service, parkingLot -> {
                ReplayReport report = parkingLot.replay(chosen, limit, dryRun);
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
        ParkingLotCommand parent;

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
