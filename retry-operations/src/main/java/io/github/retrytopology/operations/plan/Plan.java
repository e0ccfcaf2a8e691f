package io.github.retrytopology.operations.plan;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What differs between a spec and the virtual host of a broker, object by object: every object of the spec,
 * and every object of the broker that the spec's names say is ours, each in one class.
 *
 * @param vhost the virtual host
 * @param exchange the spec's exchange
 * @param broker the management API that was read, without credentials
 * @param entries the objects: the exchange first, then service by service in the spec's order, each service's
 *     queues with their policies, then its bindings; then the services the spec no longer has, by name
 * @param warnings what a person should know that is not the class of any one object
 */
public record Plan(String vhost, String exchange, URI broker, List<PlanEntry> entries, List<String> warnings) {

    public Plan {
        requireNonNull(vhost, "vhost");
        requireNonNull(exchange, "exchange");
        requireNonNull(broker, "broker");
        entries = List.copyOf(entries);
        warnings = List.copyOf(warnings);
    }

    /** Whether every object is in sync. */
    public boolean inSync() {
        return entries.stream().allMatch(PlanEntry::inSync);
    }

    /** The entries that are not in sync. */
    public List<PlanEntry> drift() {
        return entries.stream().filter(entry -> !entry.inSync()).toList();
    }

    /** How many entries each class has, every class listed, in the order of {@link PlanEntry.Action}. */
    public Map<PlanEntry.Action, Long> counts() {
        Map<PlanEntry.Action, Long> counts = new EnumMap<>(PlanEntry.Action.class);
        for (PlanEntry.Action action : PlanEntry.Action.values()) {
            counts.put(action, 0L);
        }
        entries.forEach(entry -> counts.merge(entry.action(), 1L, Long::sum));
        return counts;
    }

    /** The entry of one object, for tests and tools: {@code entry(Kind.QUEUE, "orders.retry.1")}. */
    public PlanEntry entry(PlanEntry.Kind kind, String name) {
        return entries.stream()
                .filter(entry -> entry.kind() == kind && entry.name().equals(name) && entry.routingKey().isEmpty())
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("the plan has no " + kind.id() + " " + name));
    }

    /** The entry of a binding. */
    public PlanEntry binding(String queue, String routingKey) {
        return entries.stream()
                .filter(entry -> entry.kind() == PlanEntry.Kind.BINDING && entry.name().equals(queue)
                        && entry.routingKey().orElseThrow().equals(routingKey))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("the plan has no binding " + routingKey + " -> " + queue));
    }
}
