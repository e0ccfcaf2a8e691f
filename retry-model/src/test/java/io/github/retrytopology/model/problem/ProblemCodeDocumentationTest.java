package io.github.retrytopology.model.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Problem codes are the user's contract: the README lists every one. */
class ProblemCodeDocumentationTest {

    @ParameterizedTest(name = "{0}")
    @EnumSource(ProblemCode.class)
    void theReadmeListsTheCode(ProblemCode code) throws IOException {
        String readme = Files.readString(Path.of("../README.md"));

        assertThat(readme).contains("| `" + code.id() + "` |");
    }
}
