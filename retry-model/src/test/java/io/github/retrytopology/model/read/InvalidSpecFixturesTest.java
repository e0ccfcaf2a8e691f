package io.github.retrytopology.model.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.problem.InvalidSpecException;
import io.github.retrytopology.model.problem.Problem;
import io.github.retrytopology.model.problem.ProblemCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs every fixture under {@code specs/invalid}. Each fixture states what it must produce in its leading
 * comments: {@code # expect: line:column code} for every problem, in any order, and optionally
 * {@code # message: text} for text that one of the messages must contain.
 */
class InvalidSpecFixturesTest {

    static final Path FIXTURES = Path.of("src/test/resources/specs/invalid");

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void reportsExactlyTheExpectedProblems(String fixture) throws IOException {
        Path file = FIXTURES.resolve(fixture);
        Expectation expected = Expectation.of(file);

        InvalidSpecException error = catchThrowableOfType(InvalidSpecException.class, () -> Specs.load(file));

        assertThat(error).as("%s must be refused", fixture).isNotNull();
        assertThat(error.problems())
                .extracting(problem -> problem.position().line() + ":" + problem.position().column() + " "
                        + problem.code().id())
                .as("problems of %s:%n%s", fixture, error.getMessage())
                .containsExactlyInAnyOrderElementsOf(expected.problems());
        assertThat(error.problems()).allSatisfy(problem -> assertThat(problem.position().file()).isEqualTo(file.toString()));
        for (String text : expected.messages()) {
            assertThat(error.problems()).extracting(Problem::message).anySatisfy(message -> assertThat(message).contains(text));
        }
    }

    @Test
    void everyProblemCodeHasAFixture() throws IOException {
        // FILE_TOO_LARGE: see SpecReaderTest; the codes of classes missing from a class path: see ClassCheckTest.
        Set<String> covered = new TreeSet<>(Set.of(ProblemCode.FILE_TOO_LARGE.id(), ProblemCode.UNKNOWN_CLASS.id(),
                ProblemCode.NOT_THROWABLE.id()));
        for (String fixture : fixtures().toList()) {
            Expectation.of(FIXTURES.resolve(fixture)).problems().forEach(problem -> covered.add(problem.split(" ")[1]));
        }

        assertThat(covered).containsAll(Arrays.stream(ProblemCode.values()).map(ProblemCode::id).toList());
    }

    @Test
    void problemsAreListedInFileOrderWithTheirPath() throws IOException {
        InvalidSpecException error = catchThrowableOfType(InvalidSpecException.class,
                () -> Specs.load(FIXTURES.resolve("many-problems.yml")));

        assertThat(error.problems()).isSortedAccordingTo(Problem.IN_FILE_ORDER);
        assertThat(error.problems()).extracting(Problem::path)
                .contains("package", "defaults.delays[0]", "services.email.retries", "services.sms.routingKeys[0]");
        assertThat(error.getMessage()).startsWith(FIXTURES.resolve("many-problems.yml") + " is not a valid retry spec (")
                .contains(FIXTURES.resolve("many-problems.yml") + ":17:5 [unknown-key] services.email.retries: "
                        + "'retries' is not a service key");
    }

    static Stream<String> fixtures() throws IOException {
        try (Stream<Path> files = Files.list(FIXTURES)) {
            return files.map(path -> path.getFileName().toString()).filter(name -> name.endsWith(".yml")).sorted().toList().stream();
        }
    }

    record Expectation(List<String> problems, List<String> messages) {
        static Expectation of(Path file) throws IOException {
            List<String> problems = new ArrayList<>();
            List<String> messages = new ArrayList<>();
            String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
            for (String line : text.lines().takeWhile(line -> line.startsWith("#")).collect(Collectors.toList())) {
                if (line.startsWith("# expect: ")) {
                    problems.add(line.substring("# expect: ".length()).strip());
                } else if (line.startsWith("# message: ")) {
                    messages.add(line.substring("# message: ".length()).strip());
                }
            }
            assertThat(problems).as("%s states the problems it expects", file).isNotEmpty();
            return new Expectation(problems, messages);
        }
    }
}
