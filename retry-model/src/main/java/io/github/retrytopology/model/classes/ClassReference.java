package io.github.retrytopology.model.classes;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.problem.Position;

/**
 * A class that a spec names, where it names it: a {@code payload} or a {@code nonRetryable} entry, as the reader
 * found it.
 *
 * @param name the binary name, as written
 * @param use what the spec names it for
 * @param position where the name is written
 * @param path the YAML path of the name, such as {@code services.orders.nonRetryable[0]}
 */
public record ClassReference(String name, Use use, Position position, String path) {

    public ClassReference {
        requireNonNull(name, "name");
        requireNonNull(use, "use");
        requireNonNull(position, "position");
        requireNonNull(path, "path");
    }

    /** What a spec names a class for. */
    public enum Use {
        /** A routing key's {@code payload}: the body is decoded into it. */
        PAYLOAD("payload class"),
        /** An entry of {@code nonRetryable}: an exception that parks a message at once. */
        NON_RETRYABLE("non-retryable exception");

        private final String description;

        Use(String description) {
            this.description = description;
        }

        /** What the class is, for messages: "payload class". */
        public String description() {
            return description;
        }
    }
}
