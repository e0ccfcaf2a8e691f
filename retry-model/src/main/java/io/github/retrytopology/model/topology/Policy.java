package io.github.retrytopology.model.topology;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * A policy to set: it applies its definition to the queues whose names match its pattern.
 *
 * @param name its name
 * @param pattern a regular expression over queue names; ours match exactly one queue each
 * @param applyTo what it applies to: always {@code queues}
 * @param priority which policy wins when several match; RabbitMQ applies only the highest
 * @param definition the settings it applies; iterated in key order
 */
public record Policy(String name, String pattern, String applyTo, int priority, Map<String, Object> definition) {

    /** What our policies apply to: queues, not exchanges. */
    public static final String QUEUES = "queues";

    public Policy {
        requireNonNull(name, "name");
        requireNonNull(pattern, "pattern");
        requireNonNull(applyTo, "applyTo");
        definition = Sorted.copyOf(definition);
    }
}
