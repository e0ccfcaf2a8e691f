package io.github.retrytopology.model.topology;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * A queue to declare: always durable, never exclusive or auto-deleted.
 *
 * @param name its name
 * @param arguments every argument to declare it with, {@code x-queue-type} included; iterated in key order
 */
public record Queue(String name, Map<String, Object> arguments) {

    public Queue {
        requireNonNull(name, "name");
        arguments = Sorted.copyOf(arguments);
    }
}
