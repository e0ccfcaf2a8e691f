package io.github.retrytopology.maven.generator;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.retrytopology.model.Names;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.load.Specs;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Generated code stays correct when the spec's names clash with everything it uses. */
class GeneratedCodeTest {

    private static final Map<String, String> PAYLOADS = Map.of(
            "com/acme/first/Event.java", "package com.acme.first;\n\npublic record Event(int id) {\n}\n",
            "com/acme/second/Event.java", "package com.acme.second;\n\npublic record Event(int id) {\n}\n",
            "com/acme/other/Routes.java", "package com.acme.other;\n\npublic record Routes(int id) {\n}\n",
            "com/acme/other/DeliveryContext.java", "package com.acme.other;\n\npublic record DeliveryContext(int id) {\n}\n",
            "com/acme/other/RetryTopology.java", "package com.acme.other;\n\npublic record RetryTopology(int id) {\n}\n",
            "com/acme/clash/Outer.java", """
                    package com.acme.clash;

                    public final class Outer {
                        public record Inner(int id) {
                        }

                        public static final class Problem extends RuntimeException {
                            private static final long serialVersionUID = 1L;
                        }

                        private Outer() {
                        }
                    }
                    """);

    @Test
    void compilesWhenNamesClashAndHoldsTheSameModel(@TempDir Path work) throws Exception {
        Path specFile = Path.of("src/test/resources/specs/clashing-names.yml");
        RetrySpec spec = Specs.load(specFile);
        List<GeneratedFile> files = new Generator().render(Files.readString(specFile),
                new GenerationRequest(specFile, work.resolve("java"), work.resolve("resources"), "test"));
        for (GeneratedFile file : files) {
            Files.createDirectories(file.path().getParent());
            Files.write(file.path(), file.content());
        }

        Path classes = JavaCompilation.compile(files, PAYLOADS, work);

        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                getClass().getClassLoader())) {
            Class<?> topology = loader.loadClass("com.acme.clash.RetryTopology");
            assertThat(topology.getField("SPEC").get(null)).isEqualTo(spec);
            assertThat(topology.getField("EXCHANGE").get(null)).isEqualTo("events */ \"quoted\" \\u000a @see");
            List<String> expectedConstants = new ArrayList<>(Names.TOPOLOGY_CONSTANTS);
            spec.services().forEach(service -> expectedConstants.add(service.constant()));
            assertThat(Arrays.stream(topology.getFields())
                    .filter(field -> Modifier.isStatic(field.getModifiers()))
                    .map(Field::getName))
                    .as("the constants the model reserves are the ones the class has")
                    .containsExactlyInAnyOrderElementsOf(expectedConstants);
            for (Service service : spec.services()) {
                Class<?> names = loader.loadClass("com.acme.clash.RetryTopology$" + service.javaType());
                assertThat(names.getField("QUEUE").get(null)).isEqualTo(service.queue());
                assertThat(names.getField("PARKING_LOT").get(null)).isEqualTo(service.parkingLot());
            }
        }
        String handler = Files.readString(files.stream()
                .filter(file -> file.path().endsWith("BigDecimalHandler.java")).findFirst().orElseThrow().path(),
                StandardCharsets.UTF_8);
        assertThat(handler).contains("import com.acme.clash.Outer.Inner;", "Inner.class, handler::nestedX",
                "com.acme.other.RetryTopology payload");
    }
}
