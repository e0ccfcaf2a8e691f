package io.github.retrytopology.model.topology;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.QueueType;
import java.util.Map;

/**
 * A queue to declare: always durable, never exclusive or auto-deleted.
 *
 * @param name its name
 * @param role what it is for
 * @param type its queue type, declared through {@code x-queue-type}
 * @param arguments every argument to declare it with, {@code x-queue-type} included; iterated in key order
 */
public record Queue(String name, Role role, QueueType type, Map<String, Object> arguments) {

    public Queue {
        requireNonNull(name, "name");
        requireNonNull(role, "role");
        requireNonNull(type, "type");
        arguments = Sorted.copyOf(arguments);
    }

    /** What a queue does in the retry topology. */
    public enum Role {
        /** The queue a service consumes. */
        SERVICE,
        /** A wait queue whose messages expire back into the service's queue. */
        TIER,
        /** Where messages wait for a person. */
        PARKING_LOT
    }
}
