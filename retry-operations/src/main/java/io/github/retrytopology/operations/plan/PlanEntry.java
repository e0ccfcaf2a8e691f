package io.github.retrytopology.operations.plan;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One object of the plan, in exactly one class: an object of the spec, or an object of the broker that the
 * spec's names say belongs to it.
 *
 * @param action its class
 * @param kind what it is
 * @param service the service it belongs to; empty for the exchange
 * @param name its name: for a binding, the queue it binds
 * @param routingKey the binding key, for a binding only
 * @param reason why it is in this class, in a sentence
 * @param broker what the broker holds that differs, or the whole object for an orphan; setting to value, a
 *     missing setting as null. Empty when nothing differs.
 * @param spec what the spec wants instead, or the whole object for one to create
 * @param messages the messages a queue holds, when the broker has counted them
 * @param consumers the consumers a queue has, when the broker has counted them
 * @param deadLettered the messages a quorum queue has dead-lettered and not yet forwarded, when known
 */
public record PlanEntry(Action action, Kind kind, Optional<String> service, String name, Optional<String> routingKey,
        String reason, Map<String, Object> broker, Map<String, Object> spec, OptionalLong messages,
        OptionalLong consumers, OptionalLong deadLettered) {

    /** The value a queue in conflict names when its dead-letter target is missing: the target's routing key. */
    static final String DEAD_LETTER_TARGET = "dead-letter-target";

    public PlanEntry {
        requireNonNull(action, "action");
        requireNonNull(kind, "kind");
        requireNonNull(service, "service");
        requireNonNull(name, "name");
        requireNonNull(routingKey, "routingKey");
        requireNonNull(reason, "reason");
        broker = Collections.unmodifiableMap(new LinkedHashMap<>(broker));
        spec = Collections.unmodifiableMap(new LinkedHashMap<>(spec));
        requireNonNull(messages, "messages");
        requireNonNull(consumers, "consumers");
        requireNonNull(deadLettered, "deadLettered");
        if ((kind == Kind.BINDING) != routingKey.isPresent()) {
            throw new IllegalArgumentException("a binding, and only a binding, has a routing key: " + kind + " " + name);
        }
    }

    /** Whether the broker already holds the object as the spec wants it. */
    public boolean inSync() {
        return action == Action.IN_SYNC;
    }

    /** The object, as a person reads it: {@code queue orders.retry.1}, {@code binding order.created -> orders}. */
    public String object() {
        return kind.id() + " " + (kind == Kind.BINDING ? routingKey.orElseThrow() + " -> " + name : name);
    }

    /** The class of an entry. */
    public enum Action {
        /** The broker holds it as the spec wants it. */
        IN_SYNC("in-sync", "in sync"),
        /** Missing: an exchange, queue, binding or policy that apply creates. */
        CREATE("create", "create"),
        /** A policy whose definition, pattern or priority differs, or a binding the queue lacks: apply sets it. */
        UPDATE("update", "update"),
        /** A queue whose type or arguments differ, which only a new queue can change: apply --migrate does. */
        RECREATE("recreate", "recreate"),
        /** Ours by its name, no longer in the spec: apply --prune deletes it if it is empty and unused. */
        ORPHAN("orphan", "orphan"),
        /** Something else decides in its place, or it cannot work as it is; apply leaves it to a person. */
        CONFLICT("conflict", "conflict");

        private final String id;
        private final String label;

        Action(String id, String label) {
            this.id = id;
            this.label = label;
        }

        /** The value plan.json uses, such as {@code in-sync}. */
        public String id() {
            return id;
        }

        /** The words a person reads, such as {@code in sync}. */
        public String label() {
            return label;
        }
    }

    /** What an entry is. */
    public enum Kind {
        EXCHANGE, QUEUE, POLICY, BINDING;

        /** The value plan.json uses, such as {@code queue}. */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
