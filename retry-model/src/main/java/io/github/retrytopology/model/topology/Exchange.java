package io.github.retrytopology.model.topology;

import static java.util.Objects.requireNonNull;

/**
 * An exchange to declare.
 *
 * @param name its name
 * @param type its type, such as {@code topic}
 * @param durable whether it survives a broker restart
 */
public record Exchange(String name, String type, boolean durable) {

    public Exchange {
        requireNonNull(name, "name");
        requireNonNull(type, "type");
    }
}
