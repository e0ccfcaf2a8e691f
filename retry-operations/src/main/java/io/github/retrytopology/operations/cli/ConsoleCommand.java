package io.github.retrytopology.operations.cli;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.operations.console.Console;
import io.github.retrytopology.operations.console.ConsoleSettings;
import io.github.retrytopology.operations.console.OperatorSource;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code console}: serves the on-call console until stopped (Ctrl-C). */
@Command(name = "console", description = "Serves the on-call console in a browser: the services with their live "
        + "depths, the plan's drift and the topology; each parking lot by failure; replay and purge. Runs until "
        + "stopped (Ctrl-C).")
final class ConsoleCommand implements Callable<Integer> {

    @ParentCommand
    RetryCommand parent;

    @Option(names = "--bind", defaultValue = "127.0.0.1", paramLabel = "ADDRESS",
            description = "The address to listen on (default: ${DEFAULT-VALUE}); any other than a loopback address "
                    + "needs --allow-remote.")
    String bind;

    @Option(names = "--port", defaultValue = "15680", description = "The port to listen on, 0 for any free one "
            + "(default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--allow-remote", description = "Listen on an address other machines reach. The console has no "
            + "login of its own: put it behind a proxy that authenticates, and name its header with --operator-header, "
            + "which this needs.")
    boolean allowRemote;

    @Option(names = "--operator-header", paramLabel = "NAME", description = "The header in which the authenticating "
            + "proxy in front of the console names each request's user, such as X-Remote-User. A request without it "
            + "is refused, and each replay and purge is in its user's name; --as is refused beside it. Trusted only "
            + "because nothing but the proxy reaches the console.")
    String operatorHeader;

    @Option(names = "--read-only", description = "Show, and refuse every replay and purge.")
    boolean readOnly;

    @Mixin
    OperatorOption operator;

    @Spec
    CommandSpec command;

    @Option(names = "--max-scan", defaultValue = "200000", paramLabel = "N",
            description = "The most parked messages one reading of a parking lot takes (default: ${DEFAULT-VALUE}).")
    long maxScan;

    /** Counted down to stop serving, by tests; a person stops the command with Ctrl-C. */
    final CountDownLatch stop = new CountDownLatch(1);

    @Override
    public Integer call() throws Exception {
        ConsoleSettings settings = new ConsoleSettings(address(), port, allowRemote, readOnly, operatorSource(),
                maxScan);
        RetrySpec spec = parent.loadSpec();
        try (Console console = Console.start(spec, parent.spec.getFileName().toString(), parent.access(), settings)) {
            parent.out().printf("retry console of %s (virtual host '%s') at %s%s%s%n", parent.spec.getFileName(),
                    spec.vhost(), console.uri(), readOnly ? " (read-only)" : "",
                    operatorHeader == null ? "" : ", behind a proxy that names its user in " + operatorHeader);
            parent.out().flush();
            Thread closing = new Thread(stop::countDown, "retry-console-stop");
            Runtime.getRuntime().addShutdownHook(closing);
            stop.await();
            try {
                Runtime.getRuntime().removeShutdownHook(closing);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs now
            }
        }
        return RetryCommand.OK;
    }

    /** Who acts: the proxy's user where it names one, else {@code --as}; both at once would leave it unclear. */
    private OperatorSource operatorSource() {
        if (operatorHeader == null) {
            return OperatorSource.named(operator.name);
        }
        if (command.commandLine().getParseResult().hasMatchedOption("--as")) {
            throw new IllegalArgumentException("--as and --operator-header both say who acts: behind a proxy, the proxy "
                    + "names each request's user in " + operatorHeader + "; drop --as");
        }
        return OperatorSource.header(operatorHeader);
    }

    private InetAddress address() {
        try {
            return InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("--bind: no such address: " + bind, e);
        }
    }
}
