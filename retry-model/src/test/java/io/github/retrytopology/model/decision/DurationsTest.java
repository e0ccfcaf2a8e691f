package io.github.retrytopology.model.decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DurationsTest {

    @ParameterizedTest(name = "{0} is {1} ms")
    @CsvSource({"500ms, 500", "10s, 10000", "1m, 60000", "2h, 7200000", "1d, 86400000", "010s, 10000"})
    void parsesEveryUnit(String text, long millis) {
        assertThat(Durations.parse(text)).isEqualTo(Duration.ofMillis(millis));
    }

    @ParameterizedTest(name = "''{0}'': {1}")
    @CsvSource(delimiter = '|', value = {
        "10     | has no unit, which makes it ambiguous; write it with one of ms, s, m, h, d, such as '10s'",
        "1.5    | has no unit",
        "0s     | is not a delay; a duration must be positive",
        "-5s    | is negative",
        "1.5s   | is not a whole number; use a smaller unit, such as '1500ms' for 1.5s",
        "1h30m  | combines units; write it in one unit, such as '90m' for 1h30m",
        "10S    | durations are written in lower case without spaces, such as '10s'",
        "10 s   | durations are written in lower case without spaces, such as '10s'",
        "10sec  | is not a duration; expected a whole number and a unit (ms, s, m, h, d), such as '10s'",
        "P1D    | is not a duration",
    })
    void explainsWhatIsWrong(String text, String explanation) {
        assertThatThrownBy(() -> Durations.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("'" + text + "'")
                .hasMessageContaining(explanation);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"99999999999999999999s", "106751991167301d"})
    void refusesDurationsTooLongToRepresent(String text) {
        assertThatThrownBy(() -> Durations.parse(text)).isInstanceOf(ArithmeticException.class);
    }

    @ParameterizedTest(name = "{0} ms is {1}")
    @CsvSource({"0, 0ms", "500, 500ms", "10000, 10s", "90000, 1m30s", "1500, 1s500ms", "36000000, 10h",
        "4294967295, 49d17h2m47s295ms"})
    void formatsInTheLargestExactUnits(long millis, String text) {
        assertThat(Durations.format(Duration.ofMillis(millis))).isEqualTo(text);
    }
}
