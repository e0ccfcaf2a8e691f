package io.github.retrytopology.maven.generator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.problem.InvalidSpecException;
import io.github.retrytopology.model.problem.Problem;
import io.github.retrytopology.model.topology.BrokerVersion;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.testing.BrokerTopology;
import io.github.retrytopology.runtime.testing.TestManagement;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The spec contract, on specs made at random from one seed ({@link RandomSpecs}), valid and mutated:
 *
 * <ul>
 *   <li>whatever the reader and validator refuse, they refuse with problems whose every line and column exist in
 *       the file, with messages that hold no control character, and nothing else is thrown;
 *   <li>whatever they accept, the generator renders; its Java compiles under {@code -Xlint:all} without a
 *       warning, its {@code RetryTopology.SPEC} is the very model the spec reads into, and each handler interface's
 *       routes build at run time;
 *   <li>and its definitions import into a real RabbitMQ, which then holds exactly the topology the model
 *       describes.
 * </ul>
 *
 * An accepted spec that names a payload class that does not exist, as a mutation may make one, cannot compile
 * anywhere: it is counted, not compiled.
 *
 * Rerun a failure with {@code -Dcontract.seed=...}; {@code -Dcontract.specs} and {@code -Dcontract.imports}
 * set how many specs are made and imported (accepted specs of at most {@value #IMPORTED_QUEUES} queues that the
 * broker's version runs).
 */
class SpecContractIT {

    private static final long SEED = Long.getLong("contract.seed", 20_260_512L);
    private static final int SPECS = Integer.getInteger("contract.specs", 1_500);
    private static final int IMPORTS = Integer.getInteger("contract.imports", 40);
    /** The most queues of an imported spec: a quorum queue takes the broker tens of milliseconds to start. */
    private static final int IMPORTED_QUEUES = 24;
    private static final int BATCH = 250;
    private static final Path PAYLOADS = Path.of("src/test/resources/payloads");

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    /** An accepted spec and what was made of it. */
    private record Accepted(int index, String text, RetrySpec model, List<GeneratedFile> files) {
    }

    private final List<String> failures = Collections.synchronizedList(new ArrayList<>());

    @Test
    void acceptedSpecsGenerateCompileAndImportAsTheModelSaysAndRefusedOnesPointInsideTheFile(@TempDir Path work)
            throws Exception {
        long started = System.nanoTime();
        RandomSpecs specs = new RandomSpecs(SEED);
        List<Accepted> accepted = new ArrayList<>();
        int refused = 0;
        long slowest = 0;
        for (int index = 0; index < SPECS; index++) {
            byte[] bytes = specs.next(index);
            long start = System.nanoTime();
            try {
                RetrySpec model = assertTimeoutPreemptively(Duration.ofSeconds(30),
                        () -> Specs.parse(bytes, "retry.yml"));
                String text = new String(bytes, StandardCharsets.UTF_8);
                accepted.add(new Accepted(index, text, model, render(index, text, work)));
            } catch (InvalidSpecException e) {
                refused++;
                checkRefusal(index, bytes, e);
            } catch (RuntimeException | AssertionError | java.io.IOException e) {
                fail(index, new String(bytes, StandardCharsets.UTF_8), "neither accepted nor refused: " + e);
            }
            slowest = Math.max(slowest, System.nanoTime() - start);
        }
        long read = System.nanoTime();

        Path payloads = compilePayloads(work.resolve("payloads"));
        Set<String> known = Set.copyOf(RandomSpecs.PAYLOADS);
        List<Accepted> compilable = accepted.stream()
                .filter(spec -> spec.model().services().stream().flatMap(service -> service.routes().stream())
                        .allMatch(route -> route.payloadType().map(known::contains).orElse(true)))
                .toList();
        int compiled = 0;
        for (List<Accepted> batch : batches(compilable)) {
            compiled += compile(batch, payloads, work.resolve("batch-" + batch.get(0).index()));
        }
        long compiledAt = System.nanoTime();

        int imported = importIntoTheBroker(accepted);
        long importedAt = System.nanoTime();

        System.out.printf("%d specs from seed %d: %d accepted, %d refused (slowest read %d ms, all read and rendered "
                        + "in %d ms); %d compiled in %d ms (%d name payload classes that do not exist); %d imported in %d ms%n",
                SPECS, SEED, accepted.size(), refused, slowest / 1_000_000, (read - started) / 1_000_000, compiled,
                (compiledAt - read) / 1_000_000, accepted.size() - compilable.size(), imported,
                (importedAt - compiledAt) / 1_000_000);
        assertThat(failures).as("specs that broke the contract (seed %d)", SEED).isEmpty();
        assertThat(accepted).as("accepted specs").hasSizeGreaterThan(SPECS / 10);
        assertThat(compiled).as("compiled specs").isEqualTo(compilable.size());
        assertThat(refused).as("refused specs").isGreaterThan(SPECS / 4);
    }

    /** Renders an accepted spec, and writes its Java sources under {@code work}. */
    private static List<GeneratedFile> render(int index, String text, Path work) throws java.io.IOException {
        Path root = work.resolve("spec-" + index);
        List<GeneratedFile> files = new Generator().render(text,
                new GenerationRequest(root.resolve("retry.yml"), root.resolve("java"), root.resolve("resources"), "test"));
        List<GeneratedFile> sources = new ArrayList<>();
        for (GeneratedFile file : files) {
            if (file.path().toString().endsWith(".java")) {
                Files.createDirectories(file.path().getParent());
                Files.write(file.path(), file.content());
                sources.add(file);
            }
        }
        return sources;
    }

    /** Every problem points inside the file, as an editor counts lines, and says it in printable text. */
    private void checkRefusal(int index, byte[] bytes, InvalidSpecException error) {
        List<List<Integer>> lines = lines(bytes);
        for (Problem problem : error.problems()) {
            int line = problem.position().line();
            int column = problem.position().column();
            boolean afterLastLineEnd = line == lines.size() + 1 && column == 1 && endsWithLineBreak(bytes);
            boolean inside = line <= lines.size() && column <= lines.get(line - 1).size() + 1;
            if (!inside && !afterLastLineEnd) {
                fail(index, new String(bytes, StandardCharsets.UTF_8), "position " + problem.position()
                        + " is not in the file, which has " + lines.size() + " lines: " + problem);
            }
            if ((problem.path() + problem.message()).codePoints().anyMatch(SpecContractIT::unprintable)) {
                fail(index, new String(bytes, StandardCharsets.UTF_8), "unprintable message: " + problem);
            }
        }
    }

    /** The file's lines as code points, the way an editor shows them: ended by LF, CR or CR LF. */
    private static List<List<Integer>> lines(byte[] bytes) {
        int offset = bytes.length >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB
                && (bytes[2] & 0xFF) == 0xBF ? 3 : 0;
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE)
                    .decode(java.nio.ByteBuffer.wrap(bytes, offset, bytes.length - offset)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalStateException(e);
        }
        return text.lines().map(line -> line.codePoints().boxed().toList()).collect(Collectors.toList());
    }

    private static boolean endsWithLineBreak(byte[] bytes) {
        return bytes.length == 0 || bytes[bytes.length - 1] == '\n' || bytes[bytes.length - 1] == '\r';
    }

    private static boolean unprintable(int c) {
        int type = Character.getType(c);
        return type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR || type == Character.SURROGATE;
    }

    private static Path compilePayloads(Path work) throws Exception {
        JavaCompilation.Result result = JavaCompilation.tryCompile(List.of(), ContractCasesTest.payloadSources(), work,
                List.of());
        assertThat(result.clean()).as("the payload classes compile: %s", result.output()).isTrue();
        return result.classes();
    }

    /** Batches of specs whose packages differ, so that each batch compiles in one go. */
    private static List<List<Accepted>> batches(List<Accepted> accepted) {
        List<List<Accepted>> batches = new ArrayList<>();
        List<Set<String>> packages = new ArrayList<>();
        for (Accepted spec : accepted) {
            int batch = 0;
            while (batch < batches.size() && (batches.get(batch).size() == BATCH
                    || packages.get(batch).contains(spec.model().javaPackage()))) {
                batch++;
            }
            if (batch == batches.size()) {
                batches.add(new ArrayList<>());
                packages.add(new HashSet<>());
            }
            batches.get(batch).add(spec);
            packages.get(batch).add(spec.model().javaPackage());
        }
        return batches;
    }

    /** Compiles a batch; where it fails, each spec alone, to name the ones at fault. Returns how many compiled. */
    private int compile(List<Accepted> batch, Path payloads, Path work) throws Exception {
        List<GeneratedFile> files = batch.stream().flatMap(spec -> spec.files().stream()).toList();
        JavaCompilation.Result result = JavaCompilation.tryCompile(files, Map.of(), work, List.of(payloads));
        if (!result.clean() && batch.size() > 1) {
            int compiled = 0;
            for (Accepted spec : batch) {
                compiled += compile(List.of(spec), payloads, work.resolveSibling(work.getFileName() + "-" + spec.index()));
            }
            return compiled;
        }
        if (!result.clean()) {
            fail(batch.get(0).index(), batch.get(0).text(), "the generated Java does not compile cleanly:\n"
                    + result.output().lines().limit(20).collect(Collectors.joining("\n")));
            return 0;
        }
        for (Accepted spec : batch) {
            try {
                ContractCasesTest.assertHolds(result.classes(), payloads, spec.model());
            } catch (Exception | AssertionError e) {
                fail(spec.index(), spec.text(), "the compiled classes do not hold the model: " + e);
            }
        }
        return batch.size();
    }

    /**
     * Imports the definitions of up to {@link #IMPORTS} accepted specs, each into a virtual host of its own, in the
     * format of the cluster or of one virtual host in turn, and compares what the broker then holds with the model.
     */
    private int importIntoTheBroker(List<Accepted> accepted) throws Exception {
        // A service over AMQP 1.0 needs the delayed-retry policy keys, which a broker before 4.3.1 refuses.
        BrokerVersion version = broker.broker().version();
        List<Accepted> chosen = accepted.stream()
                .filter(spec -> Topology.of(spec.model()).queues().size() <= IMPORTED_QUEUES)
                .filter(spec -> version.runs(spec.model().services()))
                .limit(IMPORTS)
                .toList();
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> imports = new ArrayList<>();
            for (Accepted spec : chosen) {
                imports.add(threads.submit(() -> importOne(spec)));
            }
            for (Future<?> result : imports) {
                result.get();
            }
        } finally {
            threads.shutdownNow();
        }
        return chosen.size();
    }

    private void importOne(Accepted spec) {
        TestManagement management = broker.management();
        String vhost = broker.name() + "-spec-" + spec.index();
        Topology topology = Topology.of(spec.model().inVhost(vhost));
        boolean cluster = spec.index() % 2 == 0;
        String definitions = new String(DefinitionsJson.render(topology, Path.of("definitions.json"), cluster).content(),
                StandardCharsets.UTF_8);
        try {
            try {
                if (cluster) {
                    management.importDefinitions(definitions);
                } else {
                    management.createVhost(vhost, broker.broker().username());
                    management.importDefinitions(vhost, definitions);
                }
                BrokerTopology.assertHolds(management, topology);
            } finally {
                management.deleteVhost(vhost);
            }
        } catch (Exception | AssertionError e) {
            fail(spec.index(), spec.text(), "the broker does not hold the model's topology: " + e);
        }
    }

    private void fail(int index, String text, String why) {
        String shown = text.length() > 4_000 ? text.substring(0, 4_000) + "..." : text;
        failures.add("spec " + index + ": " + why + "\n--- spec ---\n" + shown + "\n------------");
    }
}
