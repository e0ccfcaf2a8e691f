/**
 * The retry topology's model: a {@code retry.yml} loaded and validated ({@code load}, {@code problem}), the spec it
 * describes, the broker objects and names derived from it ({@code topology}), the retry decision for every outcome
 * of a delivery ({@code decision}), the headers a message carries ({@code headers}), the classes it names
 * ({@code classes}) and its JSON Schema ({@code schema}).
 *
 * <p>The reader and the validator behind {@code load.Specs} are not exported.
 *
 * <p>{@code internal} is exported only to this project's runtime and operations, which javac cannot see when it
 * compiles this module: hence the suppressed warning.
 */
@SuppressWarnings("module")
module io.github.retrytopology.model {
    requires static transitive org.jspecify;
    requires java.compiler; // javax.lang.model.SourceVersion, which knows Java's keywords and identifiers
    requires org.yaml.snakeyaml;

    exports io.github.retrytopology.model;
    exports io.github.retrytopology.model.classes;
    exports io.github.retrytopology.model.decision;
    exports io.github.retrytopology.model.headers;
    exports io.github.retrytopology.model.load;
    exports io.github.retrytopology.model.problem;
    exports io.github.retrytopology.model.schema;
    exports io.github.retrytopology.model.topology;
    exports io.github.retrytopology.model.internal to io.github.retrytopology.runtime, io.github.retrytopology.operations;
}
