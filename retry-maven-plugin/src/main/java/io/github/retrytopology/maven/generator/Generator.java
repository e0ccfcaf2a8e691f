package io.github.retrytopology.maven.generator;

import io.github.retrytopology.maven.output.GeneratedOutput;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.read.InvalidSpecException;
import io.github.retrytopology.model.topology.Topology;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Turns a {@code retry.yml} into its generated files: a handler interface per service and the topology class,
 * the definitions in both formats, and the diagram. Everything is rendered in memory before anything is
 * written, so an invalid spec or a failing template leaves the output as it was.
 */
public final class Generator {

    /** The name the generated code's {@code @Generated} gives. */
    public static final String NAME = "io.github.retrytopology:retry-maven-plugin";

    /**
     * Generates, unless the spec, the request and the generator are all as they were for the files in place.
     *
     * @throws InvalidSpecException listing every problem of the spec
     * @throws IOException if the spec cannot be read or the output cannot be written
     * @throws GenerationException if a template fails
     */
    public GenerationResult generate(GenerationRequest request) throws IOException {
        byte[] spec = RetrySpec.readBytes(request.spec());
        String fingerprint = fingerprint(request, spec);
        GeneratedOutput output = new GeneratedOutput(request.javaOutput());
        if (output.isUpToDate(fingerprint)) {
            return GenerationResult.alreadyUpToDate();
        }
        List<GeneratedFile> files;
        try {
            files = render(RetrySpec.parse(spec, request.spec().toString()), request);
        } catch (InvalidSpecException | GenerationException e) {
            output.invalidate();
            throw e;
        }
        try {
            GeneratedOutput.Changes changes = output.write(files.stream().map(GeneratedFile::path).toList(),
                    files.stream().map(GeneratedFile::content).toList(), fingerprint);
            return new GenerationResult(false, changes.written(), changes.unchanged(), changes.deleted());
        } catch (IOException e) {
            output.invalidate();
            throw e;
        }
    }

    /** Renders every file of a spec, in memory. */
    public List<GeneratedFile> render(RetrySpec spec, GenerationRequest request) {
        String sourceName = request.spec().getFileName().toString();
        Path javaPackage = packageDirectory(request.javaOutput(), spec.javaPackage());
        Path resources = packageDirectory(request.resourceOutput(), spec.javaPackage());
        List<GeneratedFile> files = new ArrayList<>();
        files.add(TopologySource.render(spec, javaPackage, NAME, sourceName));
        for (Service service : spec.services()) {
            files.add(HandlerSource.render(spec, service, javaPackage, NAME, sourceName));
        }
        Topology topology = spec.topology();
        files.add(DefinitionsJson.render(topology, resources.resolve(Resources.DEFINITIONS), true));
        files.add(DefinitionsJson.render(topology, resources.resolve(Resources.VHOST_DEFINITIONS), false));
        files.add(TopologyDiagram.render(spec, resources.resolve(Resources.DIAGRAM), sourceName));
        return files;
    }

    private static Path packageDirectory(Path root, String javaPackage) {
        return root.resolve(javaPackage.replace('.', '/'));
    }

    /** Everything the output depends on: the generator, the spec's bytes and where the output goes. */
    private static String fingerprint(GenerationRequest request, byte[] spec) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (String part : List.of(request.generatorVersion(), request.spec().toString(),
                    request.javaOutput().toString(), request.resourceOutput().toString())) {
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
