package io.github.retrytopology.operations.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** The command line's own rules, without a broker. */
class RetryCommandTest {

    @Test
    void helpNeverShowsADefaultTakenFromTheEnvironmentWhichMayHoldAPassword() {
        for (Field field : RetryCommand.class.getDeclaredFields()) {
            Option option = field.getAnnotation(Option.class);
            if (option != null && option.defaultValue().contains("${env:")) {
                assertThat(Arrays.asList(option.description())).as(field.getName())
                        .noneMatch(line -> line.contains("${DEFAULT-VALUE}"));
                assertThat(option.showDefaultValue()).as(field.getName()).isNotEqualTo(Visibility.ALWAYS);
            }
        }
    }

    @Test
    void aMisusedOptionIsAnErrorNotDrift() {
        CommandLine command = RetryCommand.commandLine();
        command.setErr(new PrintWriter(new StringWriter()));

        assertThat(command.execute("plan", "--jsno")).isEqualTo(RetryCommand.ERROR);
    }

    @Test
    void urisOfOneClusterNamingDifferentVirtualHostsAreAnError(@TempDir Path directory) throws IOException {
        Path spec = Files.writeString(directory.resolve("retry.yml"), """
                version: 1
                package: com.acme
                exchange: shop.events
                services:
                  orders:
                    routingKeys: [order.created]
                    maxAttempts: 2
                    delays: [1s]
                """);
        CommandLine command = RetryCommand.commandLine();
        StringWriter err = new StringWriter();
        command.setErr(new PrintWriter(err));

        int exit = command.execute("--spec", spec.toString(), "--uri", "amqp://rabbit-1/shop,amqp://rabbit-2/",
                "--uri", "amqp://rabbit-3/shop", "plan");

        assertThat(exit).isEqualTo(RetryCommand.ERROR);
        assertThat(err.toString()).contains("the --uri values name different virtual hosts ('shop', none); the nodes "
                + "of a cluster share theirs");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"list", "replay", "purge", "plan", "apply", "adopt"})
    void everySubcommandAnswersHelpWithoutItsParameters(String subcommand) {
        CommandLine command = RetryCommand.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        command.setOut(new PrintWriter(out));
        command.setErr(new PrintWriter(err));

        assertThat(command.execute(subcommand, "--help")).isEqualTo(RetryCommand.OK);
        assertThat(out.toString()).startsWith("Usage: retry " + subcommand).contains("-h, --help");
        assertThat(err.toString()).isEmpty();
    }
}
