package io.github.retrytopology.maven.generator;

import io.github.retrytopology.model.Names;
import io.github.retrytopology.model.RetrySpec;
import java.nio.file.Path;

/**
 * The variables of {@code topology.properties.ftl}: the resource, one per spec, that names its topology class to
 * code that finds the generated handler interfaces at run time. Its path is unique to the spec's package, so the
 * resources of several specs in one jar do not overwrite one another.
 */
final class TopologyResource {

    static final String TEMPLATE = "topology.properties.ftl";

    private TopologyResource() {
    }

    /**
     * @param source the spec file's name, on one line
     * @param generator the generator's name
     * @param javaPackage the package
     * @param key the key of the topology class
     * @param topologyClass the topology class's name
     */
    public record Variables(String source, String generator, String javaPackage, String key, String topologyClass) {
    }

    static GeneratedFile render(RetrySpec spec, Path resourceRoot, String generator, String sourceName) {
        Variables variables = new Variables(sourceName.replaceAll("[\\r\\n]+", " "), generator, spec.javaPackage(),
                Names.TOPOLOGY_RESOURCE_KEY, spec.topologyClass());
        return GeneratedFile.of(resourceRoot.resolve(spec.topologyResource()),
                Templates.text(TEMPLATE, variables));
    }
}
