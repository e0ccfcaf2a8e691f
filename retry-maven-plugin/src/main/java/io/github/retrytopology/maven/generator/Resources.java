package io.github.retrytopology.maven.generator;

import io.github.retrytopology.model.schema.SpecSchema;

/** The names of the generated resources, which sit beside the generated classes in the jar. */
final class Resources {

    /** Definitions in the whole-cluster format: {@code POST /api/definitions}, {@code rabbitmqctl import_definitions}. */
    static final String DEFINITIONS = "definitions.json";

    /** Definitions in the per-vhost format, without vhost fields: {@code POST /api/definitions/{vhost}}. */
    static final String VHOST_DEFINITIONS = "definitions.vhost.json";

    /** The picture of the topology: Markdown with a Mermaid diagram. */
    static final String DIAGRAM = "topology.md";

    /** The JSON Schema of {@code retry.yml}, for editors. */
    static final String SCHEMA = SpecSchema.FILE_NAME;

    private Resources() {
    }
}
