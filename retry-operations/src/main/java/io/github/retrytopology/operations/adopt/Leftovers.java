package io.github.retrytopology.operations.adopt;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.operations.adopt.AdoptionRecord.Listed;
import io.github.retrytopology.operations.adopt.AdoptionRecord.OldBinding;
import io.github.retrytopology.operations.adopt.AdoptionRecord.OldExchange;
import io.github.retrytopology.operations.adopt.AdoptionRecord.Replaced;
import io.github.retrytopology.operations.adopt.Definitions.Binding;
import io.github.retrytopology.operations.adopt.Definitions.Exchange;
import io.github.retrytopology.operations.adopt.Definitions.Parameter;
import io.github.retrytopology.operations.adopt.Definitions.Policy;
import io.github.retrytopology.operations.adopt.Findings.ServiceFinding;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Sorts the objects around the retry structures: the exchanges, bindings and policies the spec replaces, and those
 * it leaves alone, which are listed with the reason, as are the virtual host's parameters (shovels, federation
 * upstreams). It also finds policies that would apply to the spec's own queues in place of, or beside, the spec's.
 */
final class Leftovers {

    private final Layout layout;
    private final Set<String> work = new TreeSet<>();
    private final Set<String> replacedQueues = new TreeSet<>();
    private final Set<String> waitQueues = new HashSet<>();
    private final Set<String> failedQueues = new HashSet<>();
    /** Each work queue's exchanges of its retry structure: those its wait queues return through, its delayed one. */
    private final Map<String, Set<String>> structureExchanges = new TreeMap<>();
    private final Set<Binding> publisherBindings;
    private final Set<String> keptExchanges;
    private final boolean bridged;
    private final Map<String, String> specQueues;
    private final List<OldExchange> exchanges = new ArrayList<>();
    private final Set<String> replacedExchanges = new TreeSet<>();
    private final List<OldBinding> bindings = new ArrayList<>();
    private final List<String> policies = new ArrayList<>();
    private final List<Listed> unmapped = new ArrayList<>();
    private final List<Listed> problems = new ArrayList<>();

    private Leftovers(Layout layout, List<ServiceFinding> services, Set<String> keptExchanges,
            List<Binding> publisherBindings, boolean bridged, Map<String, String> specQueues) {
        this.layout = layout;
        this.keptExchanges = keptExchanges;
        this.publisherBindings = new HashSet<>(publisherBindings);
        this.bridged = bridged;
        this.specQueues = specQueues;
        for (ServiceFinding service : services) {
            String queue = service.work().name();
            work.add(queue);
            Set<String> own = new TreeSet<>();
            service.waits().forEach(wait -> {
                waitQueues.add(wait.queue().name());
                own.add(wait.back().exchange().value());
            });
            service.failed().forEach(failed -> failedQueues.add(failed.queue().name()));
            service.delayedExchange().ifPresent(own::add);
            structureExchanges.put(queue, own);
        }
        replacedQueues.addAll(waitQueues);
        replacedQueues.addAll(failedQueues);
    }

    /**
     * Sorts the objects around these services.
     *
     * @param keptExchanges the spec's exchange, when publishers use it already
     * @param publisherBindings the bindings from the exchange publishers use to the services' queues
     * @param bridged whether the spec's exchange is a new one, bound to from the one publishers use
     * @param specQueues the queues the spec declares, with their service
     */
    static Leftovers of(Layout layout, List<ServiceFinding> services, Set<String> keptExchanges,
            List<Binding> publisherBindings, boolean bridged, Map<String, String> specQueues) {
        Leftovers leftovers = new Leftovers(layout, services, keptExchanges, publisherBindings, bridged, specQueues);
        leftovers.sort();
        return leftovers;
    }

    private void sort() {
        Set<Binding> structural = new HashSet<>();
        for (Binding binding : layout.definitions().bindings()) {
            if (binding.toQueue() && structural(binding)) {
                structural.add(binding);
            }
        }
        for (Exchange exchange : layout.exchanges().values()) {
            exchange(exchange, structural);
        }
        for (Binding binding : layout.definitions().bindings()) {
            if (binding.toQueue()) {
                if (structural.contains(binding)) {
                    bindings.add(old(binding));
                } else if (work.contains(binding.destination()) && !publisherBindings.contains(binding)) {
                    unmapped.add(new Listed("binding", describe(binding), "reaches the work queue '"
                            + binding.destination() + "' from an exchange the spec does not bind it to"));
                }
            } else if (replacedExchanges.contains(binding.source()) && replacedExchanges.contains(binding.destination())) {
                bindings.add(old(binding));
            } else {
                unmapped.add(new Listed("binding", describe(binding), "binds exchange '" + binding.destination()
                        + "' to exchange '" + binding.source() + "', and no retry structure holds both"));
            }
        }
        policies();
        parameters();
        existingSpecQueues();
        bindings.sort(Comparator.comparing(OldBinding::source).thenComparing(OldBinding::destination)
                .thenComparing(OldBinding::routingKey));
    }

    /** Whether a binding into a queue belongs to a retry structure the spec replaces. */
    private boolean structural(Binding binding) {
        String queue = binding.destination();
        if (replacedQueues.contains(queue)) {
            return true;
        }
        if (!work.contains(queue)) {
            return false;
        }
        if (publisherBindings.contains(binding)) {
            return bridged; // the spec's new exchange takes the place of the one publishers use
        }
        return structureExchanges.get(queue).contains(binding.source());
    }

    private void exchange(Exchange exchange, Set<Binding> structural) {
        String name = exchange.name();
        boolean publishers = publisherBindings.stream().anyMatch(binding -> binding.source().equals(name));
        if (keptExchanges.contains(name) || publishers && bridged) {
            return;
        }
        List<Binding> out = layout.bindingsFrom(name);
        List<Binding> toQueues = out.stream().filter(Binding::toQueue).toList();
        List<Binding> ours = toQueues.stream().filter(structural::contains).toList();
        if (out.isEmpty()) {
            unmapped.add(new Listed("exchange", name, "has no bindings"
                    + (deadLetteredInto(name) ? "; a queue dead-letters into it, and the broker drops what it gets"
                            : ", and nothing dead-letters into it")));
        } else if (!ours.isEmpty() && ours.size() == out.size()) {
            replacedExchanges.add(name);
            exchanges.add(new OldExchange(name, exchange.type(), role(exchange, ours)));
        } else if (!ours.isEmpty()) {
            unmapped.add(new Listed("exchange", name, "routes into retry structures ("
                    + Detector.quoted(ours.stream().map(Binding::destination).sorted().toList()) + ") and beyond them ("
                    + Detector.quoted(out.stream().filter(binding -> !ours.contains(binding))
                            .map(Binding::destination).sorted().toList())
                    + "): the spec replaces its bindings into the retry structures and leaves it"));
        } else if (publishers) {
            unmapped.add(new Listed("exchange", name, "publishers reach work queues through it, and the spec binds "
                    + "them to its one exchange only"));
        } else {
            unmapped.add(new Listed("exchange", name, "routes only to what belongs to no retry structure ("
                    + Detector.quoted(out.stream().map(Binding::destination).sorted().toList()) + ")"));
        }
    }

    private boolean deadLetteredInto(String exchange) {
        return layout.queues().values().stream().anyMatch(queue -> queue.deadLetterExchange()
                .filter(setting -> setting.value().equals(exchange)).isPresent());
    }

    private String role(Exchange exchange, List<Binding> ours) {
        if (exchange.type().equals(Routes.DELAYED_MESSAGE)) {
            return "delayed";
        }
        Set<String> roles = new TreeSet<>();
        for (Binding binding : ours) {
            String queue = binding.destination();
            roles.add(waitQueues.contains(queue) ? "retry" : failedQueues.contains(queue) ? "failed" : "requeue");
        }
        return roles.size() == 1 ? roles.iterator().next() : "retry-structure";
    }

    private void policies() {
        Set<String> unreadable = new HashSet<>();
        layout.unreadablePolicies().forEach(policy -> unreadable.add(policy.name() + "/" + policy.operator()));
        for (Map.Entry<Policy, List<String>> entry : layout.policyQueues().entrySet()) {
            Policy policy = entry.getKey();
            List<String> queues = entry.getValue();
            List<String> onExchanges = layout.policyExchanges().get(policy);
            String kind = policy.operator() ? "operator-policy" : "policy";
            checkSpecQueues(policy);
            if (unreadable.contains(policy.name() + "/" + policy.operator())) {
                unmapped.add(new Listed(kind, policy.name(), "its pattern '" + policy.pattern() + "' is no regular "
                        + "expression Java reads, so adopt cannot tell what it applies to"));
                continue;
            }
            if (queues.isEmpty() && onExchanges.isEmpty()) {
                boolean outranked = layout.queues().keySet().stream().anyMatch(name -> layout.matches(policy, name))
                        || layout.exchanges().keySet().stream().anyMatch(name -> layout.matches(policy, name));
                unmapped.add(new Listed(kind, policy.name(), outranked
                        ? "applies to nothing: a policy of higher priority applies to everything its pattern '"
                                + policy.pattern() + "' matches"
                        : "matches no queue or exchange (pattern '" + policy.pattern() + "', applies to "
                                + policy.applyTo() + ")"));
                continue;
            }
            List<String> outside = new ArrayList<>();
            queues.stream().filter(name -> !work.contains(name) && !replacedQueues.contains(name)).forEach(outside::add);
            onExchanges.stream().filter(name -> !replacedExchanges.contains(name)).forEach(outside::add);
            if (policy.operator()) {
                unmapped.add(new Listed(kind, policy.name(), "is an operator policy, the operators' own; it applies to "
                        + Detector.quoted(concat(queues, onExchanges))));
            } else if (outside.isEmpty()) {
                policies.add(policy.name());
            } else {
                unmapped.add(new Listed(kind, policy.name(), "applies to what belongs to no retry structure ("
                        + Detector.quoted(outside) + ")"
                        + (queues.size() + onExchanges.size() > outside.size() ? " as well as to retry structures" : "")));
            }
        }
        policies.sort(Comparator.naturalOrder());
    }

    /**
     * Lists a policy that would apply to a queue of the spec in the spec's policy's stead (priority at least the
     * spec's: RabbitMQ leaves equal priorities undefined), or an operator policy that would apply beside it.
     */
    private void checkSpecQueues(Policy policy) {
        if (!policy.operator() && policy.priority() < Topology.POLICY_PRIORITY
                || !(policy.applyTo().equals("queues") || policy.applyTo().equals("all")
                        || policy.applyTo().endsWith("_queues"))) {
            return;
        }
        List<String> hit = specQueues.keySet().stream().filter(name -> layout.matches(policy, name)).toList();
        if (hit.isEmpty()) {
            return;
        }
        List<String> keys = new ArrayList<>();
        policy.definition().fieldNames().forEachRemaining(keys::add);
        problems.add(new Listed(policy.operator() ? "operator-policy" : "policy", policy.name(), policy.operator()
                ? "would apply to the spec's queues " + Detector.quoted(hit) + " beside the spec's policies, setting "
                        + String.join(", ", keys.stream().sorted().toList())
                : "has priority " + policy.priority() + ", not below the spec's " + Topology.POLICY_PRIORITY
                        + ", and would apply to the spec's queues " + Detector.quoted(hit) + " in place of their own"));
    }

    /**
     * Lists a queue of the spec that the virtual host has already, other than a work queue the spec keeps: an
     * import would leave it with the arguments it has, and a migration has to empty it first.
     */
    private void existingSpecQueues() {
        specQueues.forEach((queue, service) -> {
            if (work.contains(queue) || layout.queue(queue).isEmpty()) {
                return;
            }
            String role = replacedQueues.contains(queue) ? "an old queue of a retry structure that the spec replaces"
                    : "a queue outside any retry structure";
            problems.add(new Listed("queue", queue, "is a queue that the spec declares for service '" + service
                    + "', and the virtual host has it already, as " + role));
        });
    }

    private void parameters() {
        for (Parameter parameter : layout.definitions().parameters()) {
            JsonNode value = parameter.value();
            String reason = switch (parameter.component()) {
                case "shovel" -> "a dynamic shovel from " + end(value, "src") + " to " + end(value, "dest")
                        + ": it moves messages on its own, and adopt leaves it";
                case "federation-upstream" -> "a federation upstream (" + value.path("uri").asText("no URI")
                        + "): what is federated from it arrives from another broker";
                case "federation-upstream-set" -> "a set of federation upstreams: what is federated from them arrives "
                        + "from other brokers";
                default -> "a parameter of component '" + parameter.component() + "', which no retry structure uses";
            };
            unmapped.add(new Listed(parameter.component(), parameter.name(), reason));
        }
    }

    /** One end of a shovel: {@code queue 'orders'}, {@code exchange 'events'}, on another broker where it says. */
    private static String end(JsonNode shovel, String side) {
        String where = shovel.path(side + "-queue").isTextual() ? "queue '" + shovel.path(side + "-queue").asText() + "'"
                : shovel.path(side + "-exchange").isTextual()
                        ? "exchange '" + shovel.path(side + "-exchange").asText() + "'" : "an unnamed " + side;
        JsonNode uri = shovel.path(side + "-uri");
        String broker = uri.isTextual() ? uri.asText() : uri.isArray() && !uri.isEmpty() ? uri.get(0).asText() : "";
        return broker.isEmpty() || broker.equals("amqp://") ? where
                : where + " of " + io.github.retrytopology.operations.broker.BrokerAccess.redact(broker);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static OldBinding old(Binding binding) {
        return new OldBinding(binding.source(), binding.destination(), binding.destinationType(), binding.routingKey(),
                Json.map(binding.arguments()));
    }

    private static String describe(Binding binding) {
        return binding.source() + " -> " + binding.destination()
                + (binding.routingKey().isEmpty() ? "" : " (" + binding.routingKey() + ")");
    }

    Replaced replaced() {
        exchanges.sort(Comparator.comparing(OldExchange::name));
        return new Replaced(List.copyOf(replacedQueues), exchanges, bindings, policies);
    }

    List<Listed> unmapped() {
        return unmapped;
    }

    List<Listed> problems() {
        return problems;
    }
}
