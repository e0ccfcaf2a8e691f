package io.github.retrytopology.maven.generator;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.schema.SpecSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The generated files of the six realistic specs, compared whole with the golden files under
 * {@code src/test/resources/golden} (the schema, the same for every spec, with the repository's copy), then
 * compiled. After a deliberate change to the output, rewrite the
 * golden files with {@code -Dgolden.update=true} and review the difference.
 */
class GoldenFilesTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden");
    private static final Path JAVA = Path.of("/generated/java");
    private static final Path RESOURCES = Path.of("/generated/resources");

    /** Payload classes the realistic specs name, so that their handlers compile. */
    private static final Map<String, String> PAYLOADS = Map.of(
            "com/acme/orders/OrderEvent.java", "package com.acme.orders;\n\npublic record OrderEvent(String id) {\n}\n");

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cdn-purge", "order-platform", "shared-routing-key", "broker-delay", "kept-queue", "amqp10"})
    void matchesTheGoldenFilesAndCompiles(String name, @TempDir Path work) throws Exception {
        List<GeneratedFile> rendered = render(name);
        // The schema is the same for every spec: it is compared with the repository's copy, not kept thrice.
        List<GeneratedFile> files = rendered.stream().filter(file -> !isSchema(file)).toList();
        Path golden = GOLDEN.resolve(name);
        assertThat(rendered).filteredOn(GoldenFilesTest::isSchema).singleElement().satisfies(schema -> {
            assertThat(schema.path().getParent()).isEqualTo(RESOURCES.resolve(spec(name).javaPackage().replace('.', '/')));
            assertThat(new String(schema.content(), StandardCharsets.UTF_8))
                    .isEqualTo(Files.readString(SchemaFileTest.REPOSITORY_COPY, StandardCharsets.UTF_8));
        });

        if (Boolean.getBoolean("golden.update")) {
            update(golden, files);
        }

        assertThat(relativePaths(files)).isEqualTo(goldenPaths(golden));
        for (GeneratedFile file : files) {
            String expected = Files.readString(golden.resolve(relative(file.path())), StandardCharsets.UTF_8);
            assertThat(new String(file.content(), StandardCharsets.UTF_8)).as("%s", relative(file.path())).isEqualTo(expected);
        }
        Path classes = JavaCompilation.compile(relocated(files, work.resolve("generated")), PAYLOADS, work);
        assertThat(modelOf(classes, spec(name).javaPackage())).isEqualTo(spec(name));
    }

    /** The generated {@code RetryTopology.SPEC} is the very model the spec reads into. */
    private static Object modelOf(Path classes, String javaPackage) throws Exception {
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                GoldenFilesTest.class.getClassLoader())) {
            return loader.loadClass(javaPackage + ".RetryTopology").getField("SPEC").get(null);
        }
    }

    static RetrySpec spec(String name) throws IOException {
        return Specs.parse(text(name).getBytes(StandardCharsets.UTF_8), name + ".yml");
    }

    static String text(String name) throws IOException {
        try (InputStream in = GoldenFilesTest.class.getResourceAsStream("/specs/valid/" + name + ".yml")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static List<GeneratedFile> render(String name) throws IOException {
        return new Generator().render(text(name), new GenerationRequest(Path.of(name + ".yml"), JAVA, RESOURCES, "test"));
    }

    private static List<GeneratedFile> relocated(List<GeneratedFile> files, Path root) throws IOException {
        List<GeneratedFile> moved = new java.util.ArrayList<>();
        for (GeneratedFile file : files) {
            Path path = root.resolve(relative(file.path()));
            Files.createDirectories(path.getParent());
            Files.write(path, file.content());
            moved.add(new GeneratedFile(path, file.content()));
        }
        return moved;
    }

    private static boolean isSchema(GeneratedFile file) {
        return file.path().getFileName().toString().equals(SpecSchema.FILE_NAME);
    }

    private static String relative(Path path) {
        return path.startsWith(JAVA) ? "java/" + JAVA.relativize(path) : "resources/" + RESOURCES.relativize(path);
    }

    private static TreeSet<String> relativePaths(List<GeneratedFile> files) {
        TreeSet<String> paths = new TreeSet<>();
        files.forEach(file -> paths.add(relative(file.path())));
        return paths;
    }

    private static TreeSet<String> goldenPaths(Path golden) throws IOException {
        try (Stream<Path> files = Files.walk(golden)) {
            TreeSet<String> paths = new TreeSet<>();
            files.filter(Files::isRegularFile).forEach(path -> paths.add(golden.relativize(path).toString()));
            return paths;
        }
    }

    private static void update(Path golden, List<GeneratedFile> files) {
        try {
            if (Files.exists(golden)) {
                try (Stream<Path> old = Files.walk(golden)) {
                    old.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
                }
            }
            for (GeneratedFile file : files) {
                Path path = golden.resolve(relative(file.path()));
                Files.createDirectories(path.getParent());
                Files.write(path, file.content());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
