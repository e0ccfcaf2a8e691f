package io.github.retrytopology.model.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.internal.RouteIndex;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.problem.InvalidSpecException;
import io.github.retrytopology.model.problem.Problem;
import io.github.retrytopology.model.problem.ProblemCode;
import io.github.retrytopology.model.read.SpecReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Specs within the size limit that are built to make reading them slow: each is read or refused in one pass.
 * The timeout only tells a hang from an answer; how fast reading is, the benchmarks say.
 */
class HostileSpecsTest {

    private static final Duration HANG = Duration.ofSeconds(20);
    private static final String HEAD = "version: 1\npackage: com.acme.retry\nexchange: acme.events\n";

    @Test
    void refusesTwentyThousandKeysOfOneServiceAtOnce() {
        byte[] spec = oneService(20_000, i -> "k" + i);

        InvalidSpecException error = assertTimeoutPreemptively(HANG, () -> refused(spec));

        assertThat(error.problems()).extracting(Problem::code).containsExactly(ProblemCode.TOO_MANY_ROUTING_KEYS);
    }

    @Test
    void refusesAThousandKeysFullOfHashesAtOnce() {
        byte[] spec = oneService(1_000, i -> "{key: '" + "#.".repeat(125) + "w" + i + "', handler: h" + i + "}");

        InvalidSpecException error = assertTimeoutPreemptively(HANG, () -> refused(spec));

        assertThat(error.problems()).hasSize(1_000).extracting(Problem::code).containsOnly(ProblemCode.BAD_ROUTING_KEY);
        assertThat(error.problems().get(0).message()).endsWith("has 125 '#' words; RabbitMQ 4.3 refuses a topic "
                + "binding key with more than 2");
    }

    @Test
    void readsAThousandKeysOfWildcardsThatDifferOnlyInTheirFirstWord() {
        byte[] spec = oneService(1_000, i -> "{key: 'w" + i + ".#." + "*.".repeat(120) + "#', handler: h" + i + "}");

        RetrySpec read = assertTimeoutPreemptively(HANG, () -> Specs.parse(spec, "retry.yml"));

        assertThat(read.services().get(0).routes()).hasSize(1_000);
        assertThat(RouteIndex.of(read.services().get(0), route -> route).find("w999" + ".x".repeat(120)).handler())
                .isEqualTo("h999");
    }

    @Test
    void refusesTenThousandServicesOfFiftyTiersAtOnce() {
        StringBuilder yaml = new StringBuilder(HEAD).append("defaults:\n  maxAttempts: 51\n  delays: [");
        for (int delay = 1; delay <= 50; delay++) {
            yaml.append(delay).append("s").append(delay < 50 ? ", " : "]\nservices:\n");
        }
        for (int i = 0; i < 10_000; i++) {
            yaml.append("  s").append(i).append(": {routingKeys: [k]}\n");
        }
        byte[] spec = yaml.toString().getBytes(StandardCharsets.UTF_8);
        assertThat(spec.length).isLessThan(SpecReader.MAX_BYTES);

        InvalidSpecException error = assertTimeoutPreemptively(HANG, () -> refused(spec));

        assertThat(error.problems()).extracting(Problem::code).containsExactly(ProblemCode.TOO_MANY_QUEUES);
        assertThat(error.problems().get(0).message()).contains("520000 queues");
    }

    private static byte[] oneService(int keys, IntFunction<String> key) {
        StringBuilder yaml = new StringBuilder(HEAD).append("services:\n  email:\n    maxAttempts: 1\n    routingKeys:\n");
        for (int i = 0; i < keys; i++) {
            yaml.append("      - ").append(key.apply(i)).append('\n');
        }
        byte[] spec = yaml.toString().getBytes(StandardCharsets.UTF_8);
        assertThat(spec.length).isLessThan(SpecReader.MAX_BYTES);
        return spec;
    }

    private static InvalidSpecException refused(byte[] spec) {
        return catchThrowableOfType(InvalidSpecException.class, () -> Specs.parse(spec, "retry.yml"));
    }
}
