package io.github.retrytopology.model.problem;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Problem codes are the user's contract: the plugin's page of the manual lists every one. */
class ProblemCodeDocumentationTest {

    @ParameterizedTest(name = "{0}")
    @EnumSource(ProblemCode.class)
    void thePluginsPageListsTheCode(ProblemCode code) throws IOException {
        String page = Files.readString(Path.of("../docs/plugin.md"));

        assertThat(page).contains("| `" + code.id() + "` |");
    }
}
