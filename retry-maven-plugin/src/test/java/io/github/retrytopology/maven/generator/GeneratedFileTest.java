package io.github.retrytopology.maven.generator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class GeneratedFileTest {

    @Test
    void generatedFilesAreEqualByTheirPathAndBytesNotTheirArrays() {
        GeneratedFile one = GeneratedFile.of(Path.of("a", "Handler.java"), "class Handler {}");

        assertThat(one).isEqualTo(GeneratedFile.of(Path.of("a", "Handler.java"), "class Handler {}"))
                .hasSameHashCodeAs(GeneratedFile.of(Path.of("a", "Handler.java"), "class Handler {}"));
        assertThat(one).isNotEqualTo(GeneratedFile.of(Path.of("a", "Handler.java"), "class Other {}"));
        assertThat(one).hasToString("GeneratedFile[path=" + Path.of("a", "Handler.java") + ", content=16 bytes]");
    }
}
