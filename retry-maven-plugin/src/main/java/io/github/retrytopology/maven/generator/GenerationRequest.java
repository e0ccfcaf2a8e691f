package io.github.retrytopology.maven.generator;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Optional;

/**
 * What to generate, and where: everything the generator needs, in one value.
 *
 * @param spec the {@code retry.yml}
 * @param javaOutput the directory of the generated Java sources
 * @param resourceOutput the directory of the generated definitions and diagram
 * @param generatorVersion the plugin's version; a new version regenerates everything
 * @param kubernetes how to write the messaging-topology-operator's resources beside the definitions; empty for none
 */
public record GenerationRequest(Path spec, Path javaOutput, Path resourceOutput, String generatorVersion,
        Optional<KubernetesOutput> kubernetes) {

    /** A request for every output but the Kubernetes resources. */
    public GenerationRequest(Path spec, Path javaOutput, Path resourceOutput, String generatorVersion) {
        this(spec, javaOutput, resourceOutput, generatorVersion, Optional.empty());
    }

    public GenerationRequest {
        requireNonNull(spec, "spec");
        requireNonNull(javaOutput, "javaOutput");
        requireNonNull(resourceOutput, "resourceOutput");
        requireNonNull(generatorVersion, "generatorVersion");
        requireNonNull(kubernetes, "kubernetes");
        spec = spec.toAbsolutePath().normalize();
        javaOutput = javaOutput.toAbsolutePath().normalize();
        resourceOutput = resourceOutput.toAbsolutePath().normalize();
    }
}
