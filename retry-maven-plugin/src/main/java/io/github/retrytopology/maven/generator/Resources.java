package io.github.retrytopology.maven.generator;

import io.github.retrytopology.model.schema.SpecSchema;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

/** The names of the generated resources, which sit beside the generated classes in the jar. */
final class Resources {

    /** Definitions in the whole-cluster format: {@code POST /api/definitions}, {@code rabbitmqctl import_definitions}. */
    static final String DEFINITIONS = "definitions.json";

    /** Definitions in the per-vhost format, without vhost fields: {@code POST /api/definitions/{vhost}}. */
    static final String VHOST_DEFINITIONS = "definitions.vhost.json";

    /** The messaging-topology-operator's resources of the topology, when asked for: one multi-document YAML file. */
    static final String KUBERNETES = "kubernetes.yaml";

    /** The picture of the topology: Markdown with a Mermaid diagram. */
    static final String DIAGRAM = "topology.md";

    /** The JSON Schema of {@code retry.yml}, for editors. */
    static final String SCHEMA = SpecSchema.FILE_NAME;

    private Resources() {
    }

    /**
     * The JSON Schema as this plugin's jar ships it, which its tests prove to be what the model derives: copied,
     * rather than printed anew by a JSON library that a build would otherwise load and warm up for one file.
     */
    static GeneratedFile schema(Path file) {
        try (InputStream shipped = Resources.class.getResourceAsStream("/" + SCHEMA)) {
            if (shipped == null) {
                throw new GenerationException("the plugin's jar does not hold " + SCHEMA);
            }
            return new GeneratedFile(file, shipped.readAllBytes());
        } catch (IOException e) {
            throw new GenerationException("could not read " + SCHEMA + " from the plugin's jar: " + e, e);
        }
    }
}
