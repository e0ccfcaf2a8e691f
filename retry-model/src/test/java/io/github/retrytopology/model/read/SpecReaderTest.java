package io.github.retrytopology.model.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.problem.InvalidSpecException;
import io.github.retrytopology.model.problem.Position;
import io.github.retrytopology.model.problem.Problem;
import io.github.retrytopology.model.problem.ProblemCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the reader does with files a careless or hostile user might write. */
class SpecReaderTest {

    private static final String VALID = """
            version: 1
            package: com.acme.retry
            exchange: acme.events
            services:
              email:
                routingKeys: [order.created]
                maxAttempts: 1
            """;

    @Test
    void readsAUtf8ByteOrderMark() {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

        RetrySpec spec = Specs.parse(concat(bom, VALID.getBytes(StandardCharsets.UTF_8)), "retry.yml");

        assertThat(spec.exchange()).isEqualTo("acme.events");
    }

    @Test
    void refusesUtf16() {
        InvalidSpecException error = refused(VALID.getBytes(StandardCharsets.UTF_16));

        assertThat(error.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.code()).isEqualTo(ProblemCode.NOT_UTF8);
            assertThat(problem.message()).contains("UTF-16");
        });
    }

    @Test
    void refusesAFileLargerThanTheLimitBeforeParsingIt() {
        byte[] large = ("# " + "x".repeat(SpecReader.MAX_BYTES) + "\n" + VALID).getBytes(StandardCharsets.UTF_8);

        InvalidSpecException error = refused(large);

        assertThat(error.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.code()).isEqualTo(ProblemCode.FILE_TOO_LARGE);
            assertThat(problem.position()).isEqualTo(new Position("retry.yml", 1, 1));
            assertThat(problem.message()).isEqualTo("the file is larger than 1048576 bytes, the most a spec may be");
        });
    }

    @Test
    void refusesAnAliasBomb() {
        StringBuilder bomb = new StringBuilder("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (char level = 'b'; level <= 'z'; level++) {
            char previous = (char) (level - 1);
            bomb.append(level).append(": &").append(level).append(" [")
                    .append(("*" + previous + ", ").repeat(8)).append('*').append(previous).append("]\n");
        }

        InvalidSpecException error = refused(bomb.toString().getBytes(StandardCharsets.UTF_8));

        assertThat(error.problems()).extracting(Problem::code).containsExactly(ProblemCode.YAML_SYNTAX);
        assertThat(error.problems().get(0).message()).contains("aliases");
    }

    @Test
    void refusesDeepNesting() {
        String deep = "services: " + "[".repeat(500) + "]".repeat(500) + "\n";

        InvalidSpecException error = refused(deep.getBytes(StandardCharsets.UTF_8));

        assertThat(error.problems()).extracting(Problem::code).containsExactly(ProblemCode.YAML_SYNTAX);
        assertThat(error.problems().get(0).message()).containsIgnoringCase("nesting depth");
    }

    @Test
    void readsNoMoreOfAHugeFileThanItNeedsToRefuseIt(@TempDir Path directory) throws IOException {
        Path huge = directory.resolve("retry.yml");
        try (var out = Files.newOutputStream(huge)) {
            byte[] line = "# padding padding padding padding padding padding padding padding\n".getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < 5 * SpecReader.MAX_BYTES / line.length; i++) {
                out.write(line);
            }
        }

        assertThat(Specs.readBytes(huge)).hasSize(SpecReader.MAX_BYTES + 1);
        InvalidSpecException error = catchThrowableOfType(InvalidSpecException.class, () -> Specs.load(huge));
        assertThat(error.problems()).extracting(Problem::code).containsExactly(ProblemCode.FILE_TOO_LARGE);
    }

    @Test
    void refusesAControlCharacterWithItsPosition() {
        String text = VALID.replace("acme.events", "acme\u0007events");

        InvalidSpecException error = refused(text.getBytes(StandardCharsets.UTF_8));

        assertThat(error.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.code()).isEqualTo(ProblemCode.YAML_SYNTAX);
            assertThat(problem.position()).isEqualTo(new Position("retry.yml", 3, 15));
            assertThat(problem.message()).contains("U+0007");
        });
    }

    @Test
    void writesEveryControlCharacterOfAMessageAsAnEscape() {
        String text = VALID.replace("acme.events", "\"events\\r[ERROR] fake line\\u2028\\u202Eevil\\x85\"")
                .replace("email:", "\"em\\nail\":");

        InvalidSpecException error = refused(text.getBytes(StandardCharsets.UTF_8));

        assertThat(error.getMessage()).doesNotContain("\r", "\u2028", "\u202E", "\u0085")
                .contains("'events\\r[ERROR] fake line\\u2028\\u202Eevil\\u0085' contains a control character",
                        "services['em\\nail']");
        assertThat(error.getMessage().lines()).allSatisfy(line -> assertThat(line).doesNotStartWith("[ERROR]"));
    }

    @Test
    void readsAliasesThatShareSettings() {
        String shared = """
                version: 1
                package: com.acme.retry
                exchange: acme.events
                services:
                  email:
                    routingKeys: [order.created]
                    maxAttempts: 3
                    delays: &steps [1s, 5s]
                  sms:
                    routingKeys: [order.created]
                    maxAttempts: 3
                    delays: *steps
                """;

        RetrySpec spec = Specs.parse(shared.getBytes(StandardCharsets.UTF_8), "retry.yml");

        assertThat(spec.service("sms").retryPolicy().tiers()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(5));
    }

    @Test
    void refusesARecursiveAliasWithoutLooping() {
        String recursive = VALID.replace("routingKeys: [order.created]", "routingKeys: &keys [order.created, *keys]");

        InvalidSpecException error = refused(recursive.getBytes(StandardCharsets.UTF_8));

        assertThat(error.problems()).extracting(Problem::code).containsExactly(ProblemCode.WRONG_TYPE);
        assertThat(error.problems().get(0).path()).isEqualTo("services.email.routingKeys[1]");
    }

    @Test
    void readsWordsThatYaml11WouldTurnIntoOtherTypes() {
        String norway = VALID.replace("email:", "no:").replace("order.created", "on");

        RetrySpec spec = Specs.parse(norway.getBytes(StandardCharsets.UTF_8), "retry.yml");

        assertThat(spec.services()).singleElement().satisfies(service -> {
            assertThat(service.name()).isEqualTo("no");
            assertThat(service.routes().get(0).key().value()).isEqualTo("on");
        });
    }

    private static InvalidSpecException refused(byte[] content) {
        InvalidSpecException error = catchThrowableOfType(InvalidSpecException.class,
                () -> Specs.parse(content, "retry.yml"));
        assertThat(error).as("the spec is refused").isNotNull();
        return error;
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = new byte[first.length + second.length];
        System.arraycopy(first, 0, both, 0, first.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}
