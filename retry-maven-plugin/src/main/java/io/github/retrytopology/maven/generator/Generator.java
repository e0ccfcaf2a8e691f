package io.github.retrytopology.maven.generator;

import io.github.retrytopology.maven.output.GeneratedOutput;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.problem.InvalidSpecException;
import io.github.retrytopology.model.topology.Topology;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Turns a {@code retry.yml} into its generated files: a handler interface per service and the topology class,
 * the definitions in both formats (and, when asked, as the messaging-topology-operator's resources), the diagram, the JSON Schema of the spec itself for editors, and the resource
 * that names the topology class to code that finds it at run time. Everything is rendered in memory before anything is
 * written, so an invalid spec or a failing template leaves the output as it was.
 */
public final class Generator {

    /** The name the generated code's {@code @Generated} gives. */
    public static final String NAME = "io.github.retrytopology:retry-maven-plugin";

    private final String code;

    /** A generator whose fingerprint covers its own code and templates, and the model's code. */
    public Generator() {
        this(CodeDigest.OF_GENERATOR);
    }

    /** A generator whose output is fingerprinted as coming from this code, for tests. */
    Generator(String code) {
        this.code = code;
    }

    /**
     * Generates, unless the spec, the request and the generator are all as they were for the files in place.
     *
     * @throws InvalidSpecException listing every problem of the spec
     * @throws IOException if the spec cannot be read or the output cannot be written
     * @throws GenerationException if a template fails
     */
    public GenerationResult generate(GenerationRequest request) throws IOException {
        byte[] spec = Specs.readBytes(request.spec());
        String fingerprint = fingerprint(request, spec);
        GeneratedOutput output = new GeneratedOutput(request.javaOutput(), request.resourceOutput());
        if (output.isUpToDate(fingerprint)) {
            return GenerationResult.alreadyUpToDate();
        }
        // A second thread loads the templates while this one reads the spec, then renders the definitions while
        // this one renders the Java sources: a build's other core is otherwise idle while the plugin runs.
        ExecutorService helper = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "retry-generate");
            thread.setDaemon(true);
            return thread;
        });
        try {
            Future<?> templates = helper.submit(Templates::load);
            RetrySpec model = Specs.parse(spec, request.spec().toString());
            join(templates);
            List<GeneratedFile> files = render(model, new String(spec, StandardCharsets.UTF_8), request, helper);
            GeneratedOutput.Changes changes = output.write(files.stream().map(GeneratedFile::path).toList(),
                    files.stream().map(GeneratedFile::content).toList(), fingerprint);
            return new GenerationResult(false, changes.written(), changes.unchanged(), changes.deleted());
        } finally {
            helper.shutdownNow();
        }
    }

    /**
     * Reads a spec and renders every file of it, in memory.
     *
     * @param specText the spec's text, which the generated topology class holds and reads its model from
     * @throws InvalidSpecException listing every problem of the spec
     */
    public List<GeneratedFile> render(String specText, GenerationRequest request) {
        String file = request.spec().getFileName().toString();
        RetrySpec spec = Specs.parse(specText.getBytes(StandardCharsets.UTF_8), file);
        return render(spec, specText, request, Runnable::run);
    }

    /** Renders the definitions with {@code helper}, and everything else on this thread. */
    private List<GeneratedFile> render(RetrySpec spec, String specText, GenerationRequest request, Executor helper) {
        String sourceName = request.spec().getFileName().toString();
        Path javaPackage = packageDirectory(request.javaOutput(), spec.javaPackage());
        Path resources = packageDirectory(request.resourceOutput(), spec.javaPackage());
        CompletableFuture<List<GeneratedFile>> definitions = CompletableFuture.supplyAsync(() -> {
            Topology topology = Topology.of(spec);
            List<GeneratedFile> rendered = new ArrayList<>(List.of(
                    DefinitionsJson.render(topology, resources.resolve(Resources.DEFINITIONS), true),
                    DefinitionsJson.render(topology, resources.resolve(Resources.VHOST_DEFINITIONS), false)));
            request.kubernetes().ifPresent(kubernetes -> rendered.add(KubernetesResources.render(spec, topology,
                    kubernetes, resources.resolve(Resources.KUBERNETES), NAME, sourceName)));
            return rendered;
        }, helper);
        List<GeneratedFile> files = new ArrayList<>();
        files.add(TopologySource.render(spec, specText, javaPackage, NAME, sourceName));
        for (Service service : spec.services()) {
            files.add(HandlerSource.render(spec, service, javaPackage, NAME, sourceName));
        }
        files.add(TopologyDiagram.render(spec, resources.resolve(Resources.DIAGRAM), sourceName));
        files.add(Resources.schema(resources.resolve(Resources.SCHEMA)));
        files.add(TopologyResource.render(spec, request.resourceOutput(), NAME, sourceName));
        files.addAll(join(definitions));
        return files;
    }

    /** Waits for a task of the helper thread, and throws what it threw. */
    private static <T> T join(Future<T> task) {
        try {
            return task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GenerationException("interrupted while generating", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new GenerationException("generating failed: " + e.getCause(), e.getCause());
        }
    }

    private static Path packageDirectory(Path root, String javaPackage) {
        return root.resolve(javaPackage.replace('.', '/'));
    }

    /**
     * Everything the output depends on: the generator's version and code, the spec's name and bytes, the Kubernetes
     * output's settings, and where the resources go from the Java sources, whose directory holds the stamp. No absolute path, so that a
     * copy of a project is as up to date as the original.
     */
    private String fingerprint(GenerationRequest request, byte[] spec) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            String resources;
            try {
                resources = request.javaOutput().relativize(request.resourceOutput()).toString().replace('\\', '/');
            } catch (IllegalArgumentException onAnotherRoot) {
                resources = request.resourceOutput().toString();
            }
            String kubernetes = request.kubernetes().map(KubernetesOutput::fingerprint).orElse("");
            for (String part : List.of(request.generatorVersion(), code, request.spec().getFileName().toString(),
                    resources, kubernetes)) {
                digest.update(part.getBytes(StandardCharsets.UTF_8));
                digest.update((byte) 0);
            }
            digest.update(spec);
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
