package io.github.retrytopology.operations.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.retrytopology.runtime.testing.TestVhost;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

/** What the command line says when the broker refuses it: what the broker said, not an exception's class. */
class BrokerErrorsIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    @Test
    void aVirtualHostThatDoesNotExistIsNamedWithWhatTheBrokerSaid() {
        String missing = broker.name() + "-missing";
        CommandLine command = RetryCommand.commandLine();
        StringWriter err = new StringWriter();
        command.setOut(new PrintWriter(new StringWriter()));
        command.setErr(new PrintWriter(err));

        int exitCode = command.execute("--uri", broker.broker().amqpUri(missing), "--spec",
                "../retry-runtime/src/test/resources/specs/fast-retries.yml", "list", "orders");

        assertThat(exitCode).isEqualTo(RetryCommand.ERROR);
        assertThat(err.toString()).contains("retry: cannot connect to virtual host '" + missing + "': ")
                .contains("NOT_ALLOWED").contains(missing).doesNotContain("java.io.IOException");
    }
}
