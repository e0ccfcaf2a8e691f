package io.github.retrytopology.maven.generator;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.load.Specs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * What the mojo spends on a spec of many services, against a baseline measured in the same run: loading the
 * same file with SnakeYAML into plain maps, the least that any YAML-driven generator pays.
 *
 * <ul>
 *   <li>{@code generateFresh}: everything, into an empty output directory (a clean build);
 *   <li>{@code generateUnchanged}: everything but writing, the spec having changed without changing any file;
 *   <li>{@code upToDate}: the run when nothing changed;
 *   <li>{@code readAndValidate}: the model's part, reading and validating the spec;
 *   <li>{@code baselineYamlLoad}: the baseline.
 * </ul>
 *
 * <p>Run with {@code ./mvnw -pl retry-maven-plugin -am verify -Pbenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class GeneratorBenchmark {

    @Param("500")
    int services;

    private Path work;
    private Path spec;
    private String specText;
    private byte[] specBytes;
    private GenerationRequest request;
    private long generation;
    private final Generator generator = new Generator();

    @Setup(Level.Trial)
    public void writeSpec() throws IOException {
        // Under target, where a build writes: this machine's /tmp creates files ten times slower.
        work = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "benchmark");
        spec = work.resolve("retry.yml");
        specText = spec(services);
        specBytes = specText.getBytes(StandardCharsets.UTF_8);
        Files.writeString(spec, specText);
        request = new GenerationRequest(spec, work.resolve("java"), work.resolve("resources"), "benchmark");
        generator.generate(request);
    }

    @TearDown(Level.Trial)
    public void deleteWork() throws IOException {
        delete(work);
    }

    /** A spec of many services, each with three routing keys, one of them a typed wildcard. */
    static String spec(int count) {
        StringBuilder yaml = new StringBuilder("""
                version: 1
                package: com.acme.benchmark
                exchange: benchmark.events
                defaults:
                  maxAttempts: 6
                  delays: [10s, 1m, 10m, 1h]
                  nonRetryable: [java.lang.IllegalArgumentException]
                services:
                """);
        for (int i = 1; i <= count; i++) {
            yaml.append("  service-").append(i).append(":\n")
                    .append("    routingKeys:\n")
                    .append("      - entity").append(i).append(".created\n")
                    .append("      - entity").append(i).append(".deleted\n")
                    .append("      - key: entity").append(i).append(".*.changed\n")
                    .append("        handler: changed\n")
                    .append("        payload: com.acme.benchmark.Change\n");
            if (i % 2 == 0) {
                yaml.append("    backoff: {initial: 5s, multiplier: 2, max: 30m}\n");
            }
        }
        return yaml.toString();
    }

    /**
     * A new, empty output directory for each call, as after {@code mvn clean}. New rather than emptied: on this
     * machine's file system, deleting files slows the writes that follow, which is no cost of the generator's.
     */
    @State(Scope.Thread)
    public static class Clean {
        GenerationRequest request;

        @Setup(Level.Invocation)
        public void newOutput(GeneratorBenchmark benchmark) throws IOException {
            Path output = Files.createTempDirectory(benchmark.work, "clean");
            request = new GenerationRequest(benchmark.spec, output.resolve("java"), output.resolve("resources"),
                    "benchmark");
        }
    }

    @Benchmark
    public GenerationResult generateFresh(Clean clean) throws IOException {
        return generator.generate(clean.request);
    }

    @Benchmark
    public GenerationResult generateUnchanged() throws IOException {
        // Another version each time: everything is rendered and compared again, and no file changes.
        return generator.generate(new GenerationRequest(spec, request.javaOutput(), request.resourceOutput(),
                "benchmark-" + ++generation));
    }

    @Benchmark
    public GenerationResult upToDate() throws IOException {
        return generator.generate(request);
    }

    @Benchmark
    public RetrySpec readAndValidate() {
        return Specs.parse(specBytes, "retry.yml");
    }

    @Benchmark
    public Object baselineYamlLoad() {
        return new Yaml(new LoaderOptions()).load(specText);
    }

    private static void delete(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
