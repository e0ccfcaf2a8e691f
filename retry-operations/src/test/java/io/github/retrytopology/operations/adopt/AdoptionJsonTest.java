package io.github.retrytopology.operations.adopt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.retrytopology.operations.adopt.AdoptionRecord.AttemptCount;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class AdoptionJsonTest {

    static Stream<Path> records() throws IOException {
        try (Stream<Path> files = Files.walk(AdopterTest.SHAPES)) {
            return files.filter(file -> file.getFileName().toString().equals("retry.adoption.json")).sorted().toList()
                    .stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("records")
    void aRecordReadsBackAsTheSameRecordAndText(Path file) throws IOException {
        AdoptionRecord record = AdoptionJson.read(file);

        assertThat(AdoptionJson.write(record)).isEqualTo(Files.readString(file));
        assertThat(AdoptionJson.read(AdoptionJson.write(record), "again")).isEqualTo(record);
    }

    @Test
    void aRecordOfAnotherSchemaIsRefusedRatherThanMisread() {
        assertThatThrownBy(() -> AdoptionJson.read("{\"document\": \"retry-adoption\", \"schema\": 2}", "later.json"))
                .isInstanceOf(IOException.class)
                .hasMessage("later.json: an adoption record of schema 2; this version reads schema 1");
        assertThatThrownBy(() -> AdoptionJson.read("{\"schema\": 1}", "plan.json"))
                .hasMessage("plan.json: not an adoption record: it has no \"document\": \"retry-adoption\"");
    }

    @Test
    void failuresAreCountedFromTheXDeathEntriesOfTheNamedQueuesAndReason() {
        AttemptCount count = new AttemptCount.XDeath(List.of("orders.wait.1", "orders.wait.2"), "expired", 1);
        Map<String, Object> headers = Map.of("x-death", List.of(
                Map.of("queue", "orders.wait.2", "reason", "expired", "count", 1L),
                Map.of("queue", "orders", "reason", "rejected", "count", 5L),
                Map.of("queue", "orders.wait.1", "reason", "expired", "count", 2L)));

        assertThat(count.failures(headers)).hasValue(4);
        assertThat(count.failures(Map.of())).hasValue(1);
        assertThat(new AttemptCount.Header("x-delivery-count").failures(Map.of("x-delivery-count", 3L))).hasValue(3);
        assertThat(new AttemptCount.Unknown("no count").failures(headers)).isEmpty();
    }
}
