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

    /** The type of the delayed-message plugin's exchange, which this project never declares but may meet. */
    public static final String DELAYED_MESSAGE = "x-delayed-message";
    /** The argument of a delayed-message exchange that names the type it routes by once a delay has passed. */
    public static final String DELAYED_TYPE = "x-delayed-type";

    public Exchange {
        requireNonNull(name, "name");
        requireNonNull(type, "type");
    }
}
