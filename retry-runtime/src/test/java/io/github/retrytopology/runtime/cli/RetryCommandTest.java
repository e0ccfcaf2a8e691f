package io.github.retrytopology.runtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Option;

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
}
