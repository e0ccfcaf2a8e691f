package io.github.retrytopology.maven.generator;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.retrytopology.model.schema.SpecSchema;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The schema as the repository keeps it, at the stable path docs/spec.md links, and as the plugin's jar ships it, is
 * what the model derives: neither can go stale. After a deliberate change to the model's rules, rewrite the copy
 * with {@code -Dschema.update=true} and review the difference.
 */
class SchemaFileTest {

    /** The repository's copy. */
    static final Path REPOSITORY_COPY = Path.of("../schema").resolve(SpecSchema.FILE_NAME);

    @Test
    void theRepositoryCopyIsWhatTheModelDerives() throws IOException {
        if (Boolean.getBoolean("schema.update")) {
            Files.writeString(REPOSITORY_COPY, SchemaJson.text(), StandardCharsets.UTF_8);
        }

        assertThat(Files.readString(REPOSITORY_COPY, StandardCharsets.UTF_8))
                .as("%s is stale: run this test with -Dschema.update=true and review the difference", REPOSITORY_COPY)
                .isEqualTo(SchemaJson.text());
    }

    @Test
    void thePluginsJarShipsIt() throws IOException {
        try (InputStream shipped = SchemaFileTest.class.getResourceAsStream("/" + SpecSchema.FILE_NAME)) {
            assertThat(shipped).as("the plugin's resources hold %s", SpecSchema.FILE_NAME).isNotNull();
            assertThat(new String(shipped.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(SchemaJson.text());
        }
    }

    @Test
    void isPrintedTheSameOnEveryPlatform() {
        assertThat(SchemaJson.text()).doesNotContain("\r").endsWith("}\n").startsWith("{\n  \"$schema\": ");
    }
}
