package io.github.retrytopology.maven.generator;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.runtime.consumer.Routes;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Specs at the edges of what the validator accepts, each of which once generated Java that did not compile:
 * every one compiles under {@code -Xlint:all} without a warning, holds the very model the spec reads into, and
 * routes every key of every service at run time.
 */
class ContractCasesTest {

    private static final Path CASES = Path.of("src/test/resources/specs/contract");
    private static final Path PAYLOADS = Path.of("src/test/resources/payloads");

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void compilesAndHoldsTheSameModel(String name, @TempDir Path work) throws Exception {
        String text = Files.readString(CASES.resolve(name), StandardCharsets.UTF_8);

        assertCompilesAndHolds(text, work);
    }

    @Test
    void compilesTheTopologyOfEightHundredServices(@TempDir Path work) throws Exception {
        assertTopologyCompilesAndHolds(GeneratorBenchmark.spec(800), work);
    }

    @Test
    void compilesAServiceWithTheMostRoutingKeys(@TempDir Path work) throws Exception {
        StringBuilder text = new StringBuilder("version: 1\npackage: com.acme.keys\nexchange: keys.events\nservices:\n"
                + "  many:\n    maxAttempts: 1\n    routingKeys:\n");
        for (int i = 0; i < Service.MAX_ROUTING_KEYS; i++) {
            text.append(i % 2 == 0 ? "      - entity" + i + ".created\n"
                    : "      - {key: 'entity" + i + ".*.changed', handler: changed" + i + ", payload: q.r.Event}\n");
        }

        assertCompilesAndHolds(text.toString(), work);
    }

    @Test
    void compilesTheTopologyOfTheMostServices(@TempDir Path work) throws Exception {
        StringBuilder text = new StringBuilder("version: 1\npackage: com.acme.most\nexchange: most.events\n"
                + "defaults: {maxAttempts: 1}\nservices:\n");
        for (int i = 0; i < RetrySpec.MAX_QUEUES / 2; i++) {
            text.append("  service-").append(i).append(": {routingKeys: [entity").append(i).append(".created]}\n");
        }

        assertTopologyCompilesAndHolds(text.toString(), work);
    }

    /** The topology class alone, which holds one constant per service: the class whose size grows with the spec. */
    private static void assertTopologyCompilesAndHolds(String text, Path work) throws Exception {
        RetrySpec model = Specs.parse(text.getBytes(StandardCharsets.UTF_8), "retry.yml");
        List<GeneratedFile> topology = render(text, work).stream()
                .filter(file -> file.path().endsWith("RetryTopology.java")).toList();

        Path classes = JavaCompilation.compile(topology, Map.of(), work);

        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                ContractCasesTest.class.getClassLoader())) {
            assertThat(loader.loadClass(model.javaPackage() + ".RetryTopology").getField("SPEC").get(null))
                    .isEqualTo(model);
        }
    }

    static Stream<String> cases() throws IOException {
        try (Stream<Path> files = Files.list(CASES)) {
            return files.map(path -> path.getFileName().toString()).sorted().toList().stream();
        }
    }

    private static void assertCompilesAndHolds(String text, Path work) throws Exception {
        RetrySpec model = Specs.parse(text.getBytes(StandardCharsets.UTF_8), "retry.yml");
        List<GeneratedFile> files = render(text, work);

        Path classes = JavaCompilation.compile(files, payloadSources(), work);

        assertHolds(classes, model);
    }

    static List<GeneratedFile> render(String text, Path work) throws IOException {
        List<GeneratedFile> files = new Generator().render(text,
                new GenerationRequest(work.resolve("retry.yml"), work.resolve("java"), work.resolve("resources"), "test"));
        for (GeneratedFile file : files) {
            Files.createDirectories(file.path().getParent());
            Files.write(file.path(), file.content());
        }
        return files;
    }

    /** The payload classes the cases name, by path under the source root. */
    static Map<String, String> payloadSources() throws IOException {
        Map<String, String> sources = new TreeMap<>();
        try (Stream<Path> files = Files.walk(PAYLOADS)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                sources.put(PAYLOADS.relativize(file).toString(), Files.readString(file, StandardCharsets.UTF_8));
            }
        }
        return sources;
    }

    /**
     * The compiled topology class holds the model, and each handler interface's routes build, with a handler for
     * every key of its service and the payload types the spec names.
     */
    static void assertHolds(Path classes, RetrySpec model) throws Exception {
        assertHolds(classes, classes, model);
    }

    /** As {@link #assertHolds(Path, RetrySpec)}, with the payload classes compiled apart. */
    static void assertHolds(Path classes, Path payloads, RetrySpec model) throws Exception {
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL(), payloads.toUri().toURL()},
                ContractCasesTest.class.getClassLoader())) {
            assertThat(loader.loadClass(model.javaPackage() + ".RetryTopology").getField("SPEC").get(null))
                    .isEqualTo(model);
            for (Service service : model.services()) {
                Class<?> handler = loader.loadClass(model.handlerInterface(service));
                Object implementation = Proxy.newProxyInstance(loader, new Class<?>[] {handler}, (proxy, method, args) -> null);
                Routes routes = (Routes) handler.getMethod("routes", handler).invoke(null, implementation);
                assertThat(routes.service()).isEqualTo(service);
            }
        }
    }
}
