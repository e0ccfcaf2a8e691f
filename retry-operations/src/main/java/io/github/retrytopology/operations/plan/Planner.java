package io.github.retrytopology.operations.plan;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.retrytopology.model.Names;
import io.github.retrytopology.model.Names.QueueName;
import io.github.retrytopology.model.Names.QueueRole;
import io.github.retrytopology.model.QueueNames;
import io.github.retrytopology.model.QueueSettings;
import io.github.retrytopology.model.QueueType;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.Tier;
import io.github.retrytopology.model.topology.Binding;
import io.github.retrytopology.model.topology.Exchange;
import io.github.retrytopology.model.topology.KubernetesNames;
import io.github.retrytopology.model.topology.Policy;
import io.github.retrytopology.model.topology.Queue;
import io.github.retrytopology.model.topology.QueueArguments;
import io.github.retrytopology.model.topology.QueueSetting;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.operations.plan.BrokerState.DeadLetterTarget;
import io.github.retrytopology.operations.plan.PlanEntry.Action;
import io.github.retrytopology.operations.plan.PlanEntry.Kind;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Compares a spec's topology with what a virtual host holds, and puts every object in one class.
 *
 * <p>Which broker objects are ours is read from their names ({@link QueueNames}: by their shape, and the queues
 * the spec keeps through the spec), service by service: the spec's services; a service the spec no longer has,
 * when the spec's exchange still binds its queue (a name alone, such as {@code billing}, could be anybody's
 * queue); and the tiers and parking lot left of one, such as {@code billing.parking-lot}, unless another exchange
 * binds {@code billing} (then they are another spec's). A policy is ours when it is named after one of those
 * queues, or after a service of the spec that keeps its queue; a binding when it binds one of them to the spec's
 * exchange.
 */
final class Planner {

    /**
     * The settings of another policy that change what happens to our messages: their TTL, dead-lettering,
     * delivery limit and length limits. Others (such as {@code ha-mode}) may apply beside ours.
     */
    private static final Set<String> SETTINGS_THAT_MATTER = QueueSetting.MESSAGE_FATE.stream().map(QueueSetting::name)
            .collect(Collectors.toUnmodifiableSet());

    /** A service's queues in the order of the spec's topology: its queue, its tiers, its parking lot; then the rest. */
    private static final Comparator<QueueName> TOPOLOGY_ORDER = Comparator.comparing(QueueName::migration)
            .thenComparing(QueueName::role)
            .thenComparingInt(QueueName::tier);

    /** The states of a queue that takes and delivers messages. */
    private static final Set<String> RUNNING = Set.of("running", "idle", "flow");

    private final RetrySpec spec;
    private final Topology topology;
    private final BrokerState broker;
    private final boolean asPolicies;
    private final QueueNames names;
    private final Map<String, Policy> specPolicies = new LinkedHashMap<>();
    /** The spec's policies by the queue each configures, which is not the one of its name for a kept queue. */
    private final Map<String, Policy> specPolicyOf;
    private final Map<String, Queue> specQueues = new LinkedHashMap<>();
    private final Map<String, List<BrokerState.Binding>> bindingsTo = new HashMap<>();
    private final Set<String> claimed = new TreeSet<>();
    private final List<PlanEntry> entries = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();

    private Planner(RetrySpec spec, BrokerState broker) {
        this.spec = spec;
        this.topology = Topology.of(spec);
        this.broker = broker;
        this.asPolicies = spec.queueSettings() == QueueSettings.POLICIES;
        this.names = spec.queueNames();
        topology.policies().forEach(policy -> specPolicies.put(policy.name(), policy));
        this.specPolicyOf = topology.policiesByQueue();
        topology.queues().forEach(queue -> specQueues.put(queue.name(), queue));
        spec.services().forEach(service -> claimed.add(service.name()));
        Set<String> boundHere = new HashSet<>();
        Set<String> boundElsewhere = new HashSet<>();
        for (BrokerState.Binding binding : broker.bindings()) {
            if (isQueue(binding)) {
                bindingsTo.computeIfAbsent(binding.destination(), queue -> new ArrayList<>()).add(binding);
            }
            if (isQueue(binding) && !binding.source().isEmpty()) {
                (binding.source().equals(spec.exchange()) ? boundHere : boundElsewhere).add(binding.destination());
            }
        }
        for (String queue : broker.queues().keySet()) {
            names.queue(queue).ifPresent(name -> {
                boolean anotherSpecs = boundElsewhere.contains(Names.queue(name.service()))
                        && !boundHere.contains(Names.queue(name.service()));
                if (name.role() == QueueRole.SERVICE && !name.migration() ? boundHere.contains(queue) : !anotherSpecs) {
                    claimed.add(name.service());
                }
            });
        }
    }

    /** The plan of a spec against a virtual host, read from {@code base}. */
    static Plan plan(RetrySpec spec, BrokerState broker, URI base) {
        return new Planner(spec, broker).plan(base);
    }

    private Plan plan(URI base) {
        Map<String, List<BrokerState.Queue>> ownedQueues = new TreeMap<>();
        broker.queues().values().forEach(queue -> owner(queue.name())
                .ifPresent(name -> ownedQueues.computeIfAbsent(name.service(), s -> new ArrayList<>()).add(queue)));
        Map<String, List<BrokerState.Policy>> ownedPolicies = new TreeMap<>();
        broker.policies().all().forEach(policy -> policyOwner(policy.name())
                .ifPresent(name -> ownedPolicies.computeIfAbsent(name.service(), s -> new ArrayList<>()).add(policy)));
        Map<String, List<BrokerState.Binding>> ownedBindings = new TreeMap<>();
        broker.bindings().stream()
                .filter(binding -> binding.source().equals(spec.exchange()) && isQueue(binding))
                .forEach(binding -> owner(binding.destination()).ifPresent(name ->
                        ownedBindings.computeIfAbsent(name.service(), s -> new ArrayList<>()).add(binding)));

        topology.exchanges().forEach(this::exchange);
        for (Service service : spec.services()) {
            List<Queue> queues = new ArrayList<>();
            queues.add(specQueues.get(service.queue()));
            service.tiers().forEach(tier -> queues.add(specQueues.get(tier.queue())));
            queues.add(specQueues.get(service.parkingLot()));
            for (Queue queue : queues) {
                queue(service, queue);
                Optional.ofNullable(specPolicyOf.get(queue.name()))
                        .ifPresent(policy -> policy(service.name(), policy));
            }
            Set<String> names = queues.stream().map(Queue::name).collect(Collectors.toSet());
            orphans(service.name(), ownedQueues.getOrDefault(service.name(), List.of()),
                    ownedPolicies.getOrDefault(service.name(), List.of()), names, Optional.of(service));
            List<Binding> bindings = topology.bindings().stream()
                    .filter(binding -> binding.queue().equals(service.queue()))
                    .toList();
            bindings.forEach(binding -> binding(service.name(), binding));
            orphanBindings(service.name(), ownedBindings.getOrDefault(service.name(), List.of()), bindings,
                    Optional.of(service));
        }
        for (String service : claimed) {
            if (spec.services().stream().noneMatch(s -> s.name().equals(service))) {
                orphans(service, ownedQueues.getOrDefault(service, List.of()),
                        ownedPolicies.getOrDefault(service, List.of()), Set.of(), Optional.empty());
                orphanBindings(service, ownedBindings.getOrDefault(service, List.of()), List.of(), Optional.empty());
            }
        }
        warn();
        return new Plan(topology.vhost(), spec.exchange(), base, entries, warnings);
    }

    private Optional<QueueName> owner(String queue) {
        return names.queue(queue).filter(parsed -> claimed.contains(parsed.service()));
    }

    /** The queue a policy of ours configures, if the policy is ours. */
    private Optional<QueueName> policyOwner(String policy) {
        return names.policy(policy).filter(parsed -> claimed.contains(parsed.service()));
    }

    private static boolean isQueue(BrokerState.Binding binding) {
        return "queue".equals(binding.destinationType());
    }

    private void exchange(Exchange exchange) {
        Entry entry = new Entry(Kind.EXCHANGE, Optional.empty(), exchange.name());
        BrokerState.Exchange present = broker.exchanges().get(exchange.name());
        if (present == null) {
            entries.add(entry.spec("type", exchange.type()).spec("durable", exchange.durable())
                    .build(Action.CREATE, "missing"));
            return;
        }
        entry.differ("type", present.type(), exchange.type())
                .differ("durable", present.durable(), exchange.durable())
                .differ("auto_delete", present.autoDelete(), false)
                .differ("internal", present.internal(), false);
        if (entry.differs()) {
            entries.add(entry.build(Action.CONFLICT, entry.differences() + "; apply does not delete an exchange, "
                    + "which would take every binding of it along: delete it by hand, or name another exchange in the spec"));
        } else {
            entries.add(entry.build(Action.IN_SYNC, "as the spec wants it"));
        }
    }

    private void queue(Service service, Queue queue) {
        Entry entry = new Entry(Kind.QUEUE, Optional.of(service.name()), queue.name());
        Optional<BrokerState.Queue> present = broker.queue(queue.name());
        if (present.isEmpty()) {
            entries.add(entry.spec("durable", true).spec("arguments", Values.plain(queue.arguments()))
                    .build(Action.CREATE, "missing"));
            return;
        }
        BrokerState.Queue onBroker = present.get();
        entry.counts(onBroker);
        String type = (String) queue.arguments().get(QueueSetting.QUEUE_TYPE.argument());
        entry.differ("durable", onBroker.durable(), true)
                .differ("auto_delete", onBroker.autoDelete(), false)
                .differ(QueueSetting.QUEUE_TYPE.argument(), onBroker.type(), type);
        for (String argument : Values.keys(onBroker.arguments(), queue.arguments())) {
            if (!argument.equals(QueueSetting.QUEUE_TYPE.argument())) {
                entry.differ(argument, Values.get(onBroker.arguments(), argument), queue.arguments().get(argument));
            }
        }
        if (entry.differs()) {
            entries.add(entry.build(Action.RECREATE, entry.differences() + "; only a new queue can change that"
                    + holds(onBroker)));
            return;
        }
        List<String> conflicts = conflicts(queue, onBroker, entry);
        if (!conflicts.isEmpty()) {
            entries.add(entry.build(Action.CONFLICT, String.join("; ", conflicts)));
        } else {
            entries.add(entry.build(Action.IN_SYNC, "as the spec wants it"));
        }
    }

    /** What else decides in our place for a queue whose type and arguments are right, or keeps it from working. */
    private List<String> conflicts(Queue queue, BrokerState.Queue onBroker, Entry entry) {
        List<String> conflicts = new ArrayList<>();
        Optional<Policy> ourPolicy = Optional.ofNullable(specPolicyOf.get(queue.name()));
        String ours = names.queue(queue.name()).orElseThrow().policy();
        List<BrokerState.Policy> others = broker.policies().matching(queue.name(), onBroker.type()).stream()
                .filter(policy -> !policy.name().equals(ours))
                .toList();
        if (ourPolicy.isPresent()) {
            int priority = ourPolicy.get().priority();
            for (BrokerState.Policy other : others) {
                if (other.priority() > priority) {
                    conflicts.add("policy '" + other.name() + "' (pattern '" + other.pattern() + "', priority "
                            + other.priority() + ") applies instead of ours (priority " + priority + ")");
                    entry.brokerValue("policy", other.name());
                } else if (other.priority() == priority) {
                    conflicts.add("policy '" + other.name() + "' (pattern '" + other.pattern() + "') has our priority "
                            + priority + ", so RabbitMQ may apply either");
                    entry.brokerValue("policy", other.name());
                }
            }
            if (!conflicts.isEmpty()) {
                entry.specValue("policy", ourPolicy.get().name());
            }
        } else if (!others.isEmpty()) {
            alongside(others.get(0), ourSettings(queue), entry, conflicts);
        }
        broker.appliedOperatorPolicy(onBroker)
                .ifPresent(operator -> alongside(operator, ourSettings(queue), entry, conflicts));
        broker.deadLetterTarget(onBroker).filter(broker::exists).ifPresent(target -> {
            if (onBroker.keepsDeadLettered()) {
                long later = onBroker.deadLetteredLater().getAsLong();
                conflicts.add("it holds " + Words.count(later, "dead-lettered message") + " that it is not forwarding "
                        + "to " + target.describe() + ", which is there (" + onBroker.deadLettered().getAsLong()
                        + " at the first reading): before RabbitMQ 3.12.5, a "
                        + "quorum queue's dead-letter worker that a node loss left behind waits "
                        + "dead_letter_worker_publisher_confirm_timeout (180 s by default) and more; "
                        + "docs/clusters.md of retry-topology says what to do");
                entry.brokerValue("messages_dlx", later);
            }
        });
        broker.deadLetterTarget(onBroker).filter(target -> !broker.exists(target)).ifPresent(target -> {
            boolean keeps = QueueArguments.AT_LEAST_ONCE.equals(target.strategy())
                    && QueueType.QUORUM.id().equals(onBroker.type());
            conflicts.add("its dead-letter target, " + target.describe() + ", is missing: "
                    + (keeps ? "the messages it dead-letters wait in it" + waiting(onBroker)
                            : "a message that expires or is refused here is dropped")
                    + (isSpecQueue(target) ? "; apply creates it" : ""));
            entry.brokerValue(PlanEntry.DEAD_LETTER_TARGET, null)
                    .specValue(PlanEntry.DEAD_LETTER_TARGET, target.routingKey());
        });
        return conflicts;
    }

    private boolean isSpecQueue(DeadLetterTarget target) {
        return target.exchange().isEmpty() && specQueues.containsKey(target.routingKey());
    }

    private static String waiting(BrokerState.Queue queue) {
        return queue.deadLettered().isPresent() ? " (" + queue.deadLettered().getAsLong() + " now)" : "";
    }

    /**
     * How a policy that applies beside our settings (an operator policy, or any policy beside queue arguments)
     * changes them: RabbitMQ takes the lower of two numbers; for the rest, arguments win over a policy, and
     * an operator policy's value is taken to win.
     */
    private static void alongside(BrokerState.Policy other, Map<String, Object> ours, Entry entry, List<String> conflicts) {
        String what = (other.operator() ? "operator policy '" : "policy '") + other.name() + "'";
        other.definition().properties().forEach(setting -> {
            String key = setting.getKey();
            JsonNode value = setting.getValue();
            if (!SETTINGS_THAT_MATTER.contains(key)) {
                return;
            }
            Object mine = ours.get(key);
            if (mine == null) {
                conflicts.add(what + " sets " + key + " to " + Values.show(Values.plain(value)) + ", which ours does not set");
            } else if (mine instanceof Number && value.isNumber()) {
                // RabbitMQ 4 reads a negative delivery limit as no limit of its own: the other one applies.
                boolean noLimit = key.equals(QueueSetting.DELIVERY_LIMIT.name()) && value.asLong() < 0;
                if (!noLimit && Values.lower(value, mine)) {
                    conflicts.add(what + " lowers " + key + " to " + value + " (ours: " + mine + ")");
                } else {
                    return;
                }
            } else if (other.operator() && !Values.same(value, mine)) {
                conflicts.add(what + " sets " + key + " to " + Values.show(Values.plain(value)) + " (ours: "
                        + Values.show(mine) + ")");
            } else {
                return;
            }
            entry.brokerValue(key, Values.plain(value)).specValue(key, Values.plain(mine));
        });
    }

    /** Our TTL, dead-letter and limit settings of a queue, keyed as a policy keys them, wherever they are kept. */
    private Map<String, Object> ourSettings(Queue queue) {
        if (asPolicies) {
            return Optional.ofNullable(specPolicyOf.get(queue.name()))
                    .map(Policy::definition)
                    .orElse(Map.of());
        }
        Map<String, Object> settings = new LinkedHashMap<>();
        queue.arguments().forEach((key, value) -> {
            if (!key.equals(QueueSetting.QUEUE_TYPE.argument())) {
                settings.put(QueueArguments.policyKey(key), value);
            }
        });
        return settings;
    }

    private void policy(String service, Policy policy) {
        Entry entry = new Entry(Kind.POLICY, Optional.of(service), policy.name());
        Optional<BrokerState.Policy> present = broker.policies().named(policy.name());
        if (present.isEmpty()) {
            entries.add(entry.spec("pattern", policy.pattern()).spec("apply-to", policy.applyTo())
                    .spec("priority", policy.priority()).spec("definition", Values.plain(policy.definition()))
                    .build(Action.CREATE, "missing"));
            return;
        }
        compare(present.get(), policy, entry);
        if (entry.differs()) {
            entries.add(entry.build(Action.UPDATE, entry.differences()));
        } else {
            entries.add(entry.build(Action.IN_SYNC, "as the spec wants it"));
        }
    }

    private static void compare(BrokerState.Policy present, Policy policy, Entry entry) {
        entry.differ("pattern", present.pattern(), policy.pattern())
                .differ("apply-to", present.applyTo(), policy.applyTo())
                .differ("priority", present.priority(), policy.priority());
        for (String key : Values.keys(present.definition(), policy.definition())) {
            entry.differ("definition." + key, Values.get(present.definition(), key), policy.definition().get(key));
        }
    }

    private void binding(String service, Binding binding) {
        Entry entry = new Entry(Kind.BINDING, Optional.of(service), binding.queue(), binding.routingKey());
        boolean present = bindingsTo.getOrDefault(binding.queue(), List.of()).stream().anyMatch(candidate ->
                candidate.source().equals(binding.exchange()) && candidate.routingKey().equals(binding.routingKey())
                        && candidate.arguments().isEmpty());
        if (present) {
            entries.add(entry.build(Action.IN_SYNC, "as the spec wants it"));
        } else if (broker.queue(binding.queue()).isPresent()) {
            entries.add(entry.spec("source", binding.exchange()).build(Action.UPDATE,
                    "the queue exists without this binding from " + binding.exchange()));
        } else {
            entries.add(entry.spec("source", binding.exchange()).build(Action.CREATE, "missing, with its queue"));
        }
    }

    /** The queues and policies of a service that the spec does not have, or of a service it no longer has. */
    private void orphans(String service, List<BrokerState.Queue> queues, List<BrokerState.Policy> policies,
            Set<String> wanted, Optional<Service> inSpec) {
        List<BrokerState.Queue> extra = queues.stream()
                .filter(queue -> !wanted.contains(queue.name()))
                .sorted(Comparator.comparing((BrokerState.Queue queue) -> names.queue(queue.name()).orElseThrow(),
                        TOPOLOGY_ORDER))
                .toList();
        Set<String> done = new TreeSet<>();
        for (BrokerState.Queue queue : extra) {
            QueueName name = names.queue(queue.name()).orElseThrow();
            Entry entry = new Entry(Kind.QUEUE, Optional.of(service), queue.name()).counts(queue)
                    .broker(QueueSetting.QUEUE_TYPE.argument(), queue.type()).broker("arguments", Values.plain(queue.arguments()));
            entries.add(entry.build(Action.ORPHAN, whyOrphan(name, inSpec) + holds(queue)));
            // The queue named after a service that now keeps another shares its policy's name with the kept one's.
            Optional.of(name).filter(orphan -> !orphan.migration()).map(QueueName::policy)
                    .filter(policy -> !specPolicies.containsKey(policy))
                    .flatMap(broker.policies()::named)
                    .ifPresent(policy -> {
                        orphanPolicy(service, policy, inSpec, true);
                        done.add(policy.name());
                    });
        }
        policies.stream()
                .filter(policy -> !specPolicies.containsKey(policy.name()) && !done.contains(policy.name()))
                .sorted(Comparator.comparing((BrokerState.Policy policy) -> names.policy(policy.name()).orElseThrow(),
                        TOPOLOGY_ORDER))
                .forEach(policy -> orphanPolicy(service, policy, inSpec,
                        broker.queue(names.policy(policy.name()).orElseThrow().name()).isPresent()));
    }

    private void orphanPolicy(String service, BrokerState.Policy policy, Optional<Service> inSpec, boolean queueExists) {
        QueueName name = names.policy(policy.name()).orElseThrow();
        String why = specQueueOf(name).isPresent() && !asPolicies
                ? "the spec keeps the settings of " + name.name() + " in queue arguments, not in a policy"
                : "the policy of " + whyOrphan(name, inSpec);
        entries.add(new Entry(Kind.POLICY, Optional.of(service), policy.name())
                .broker("pattern", policy.pattern()).broker("priority", policy.priority())
                .broker("definition", Values.plain(policy.definition()))
                .build(Action.ORPHAN, why + (queueExists ? "" : "; its queue is gone")));
    }

    private Optional<Queue> specQueueOf(QueueName name) {
        return Optional.ofNullable(specQueues.get(name.name()));
    }

    private String whyOrphan(QueueName name, Optional<Service> inSpec) {
        if (name.migration()) {
            return "the temporary queue of an interrupted migration of " + name.topologyQueue()
                    + "; apply --migrate moves its messages back";
        }
        if (inSpec.isEmpty()) {
            return "the " + role(name) + " of service '" + name.service() + "', which the spec no longer has";
        }
        if (specQueueOf(name).isPresent()) {
            return "the " + role(name) + " of service '" + name.service() + "'";
        }
        if (name.role() == QueueRole.SERVICE) {
            return "the queue named after service '" + name.service() + "', which consumes " + inSpec.get().queue()
                    + " in the spec";
        }
        List<Tier> tiers = inSpec.get().tiers();
        return "the wait queue of tier " + name.tier() + " of service '" + name.service() + "', which has "
                + (tiers.isEmpty() ? "no tiers" : tiers.size() == 1 ? "1 tier" : tiers.size() + " tiers") + " in the spec";
    }

    private static String role(QueueName name) {
        return switch (name.role()) {
            case SERVICE -> "queue";
            case TIER -> "wait queue of tier " + name.tier();
            case PARKING_LOT -> "parking lot";
        };
    }

    private void orphanBindings(String service, List<BrokerState.Binding> present, List<Binding> wanted,
            Optional<Service> inSpec) {
        present.stream()
                .filter(binding -> wanted.stream().noneMatch(want -> want.queue().equals(binding.destination())
                        && want.routingKey().equals(binding.routingKey()) && binding.arguments().isEmpty()))
                .sorted(Comparator.comparing(BrokerState.Binding::destination)
                        .thenComparing(BrokerState.Binding::routingKey))
                .forEach(binding -> {
                    QueueName name = names.queue(binding.destination()).orElseThrow();
                    String why;
                    if (name.migration()) {
                        why = "binds the temporary queue of an interrupted migration of " + name.topologyQueue();
                    } else if (inSpec.isEmpty()) {
                        why = "binds service '" + service + "', which the spec no longer has";
                    } else if (!binding.arguments().isEmpty()) {
                        why = "has binding arguments, which the spec's bindings never have";
                    } else if (name.role() == QueueRole.SERVICE && !name.name().equals(inSpec.get().queue())) {
                        why = "binds " + binding.destination() + ", which service '" + service + "' consumed before: "
                                + "it consumes " + inSpec.get().queue() + " in the spec";
                    } else if (name.role() == QueueRole.SERVICE) {
                        why = "'" + binding.routingKey() + "' is not one of the routing keys of service '" + service
                                + "' in the spec";
                    } else {
                        why = "binds " + binding.destination() + ", which only the default exchange reaches in the spec";
                    }
                    entries.add(new Entry(Kind.BINDING, Optional.of(service), binding.destination(), binding.routingKey())
                            .broker("source", binding.source())
                            .broker("arguments", Values.plain(binding.arguments()))
                            .build(Action.ORPHAN, why));
                });
    }

    private static String holds(BrokerState.Queue queue) {
        if (queue.messages().isEmpty()) {
            return "; its message count is not known yet";
        }
        long consumers = queue.consumers().orElse(0);
        return "; it holds " + Words.count(queue.messages().getAsLong(), "message")
                + (consumers > 0 ? " and has " + Words.count(consumers, "consumer") : "");
    }

    private void warn() {
        List<String> classic = spec.services().stream()
                .filter(service -> service.queueType() == QueueType.CLASSIC)
                .map(Service::name)
                .toList();
        if (broker.nodes() > 1 && !classic.isEmpty()) {
            warnings.add("the cluster has " + broker.nodes() + " nodes, and the classic queues of " + String.join(", ", classic)
                    + " each live on one of them: they are unavailable while that node is down; quorum queues are "
                    + "replicated");
        }
        for (BrokerState.Policy policy : broker.policies().unreadable()) {
            warnings.add("policy '" + policy.name() + "' has a pattern Java cannot read, '" + policy.pattern()
                    + "': the plan assumes it applies to none of our queues");
        }
        for (BrokerState.Policy policy : broker.operatorPolicies().unreadable()) {
            warnings.add("operator policy '" + policy.name() + "' has a pattern Java cannot read, '" + policy.pattern()
                    + "': the plan assumes it applies to none of our queues");
        }
        for (Queue queue : topology.queues()) {
            broker.queue(queue.name()).ifPresent(present -> {
                availability(present).ifPresent(warnings::add);
            });
        }
        long unknown = broker.queues().values().stream()
                .filter(queue -> owner(queue.name()).isPresent() && queue.messages().isEmpty())
                .count();
        if (unknown > 0) {
            warnings.add("the broker has no statistics yet for " + unknown + " of our queues, created moments ago: "
                    + "their messages and consumers are not known");
        }
        List<String> recreated = entries.stream()
                .filter(entry -> entry.kind() == Kind.QUEUE && entry.action() == Action.RECREATE)
                .map(entry -> KubernetesNames.queue(topology.queue(entry.name())))
                .toList();
        if (!recreated.isEmpty()) {
            warnings.add("where the messaging-topology-operator declares the queues to recreate, its admission webhook "
                    + "refuses the regenerated Queue " + (recreated.size() == 1 ? "resource " : "resources ")
                    + String.join(", ", recreated) + " (after the build's name prefix), as it refuses any change of a "
                    + "queue's type or arguments: give the queue a new name, or set deletionPolicy: retain, delete the "
                    + "resource, run apply --migrate and apply the resource again (docs/kubernetes.md)");
        }
    }

    /**
     * What keeps a queue from working now, or makes it one node loss from that: its node down, or a quorum queue
     * with members down.
     */
    private static Optional<String> availability(BrokerState.Queue queue) {
        String state = queue.state().orElse("running");
        if (!RUNNING.contains(state)) {
            return Optional.of("queue " + queue.name() + " is " + state + (queue.members().isEmpty()
                    ? ": a classic queue is unavailable while the node that holds it is down"
                    : "; " + members(queue)));
        }
        int members = queue.members().size();
        int online = queue.online().size();
        if (members == 0 || online == members) {
            return Optional.empty();
        }
        return Optional.of("queue " + queue.name() + " has " + members(queue) + (online > members / 2
                ? ": it works, but the loss of " + Words.count(online - members / 2, "more node") + " stops it"
                : ": no majority, so it takes and delivers nothing until one comes back"));
    }

    private static String members(BrokerState.Queue queue) {
        List<String> down = queue.members().stream().filter(member -> !queue.online().contains(member)).toList();
        return queue.online().size() + " of " + queue.members().size() + " members online"
                + (down.isEmpty() ? "" : " (" + String.join(", ", down) + " down)");
    }

    /** One entry being put together: what differs, on the broker and in the spec. */
    private static final class Entry {
        private final Kind kind;
        private final Optional<String> service;
        private final String name;
        private final Optional<String> routingKey;
        private final Map<String, Object> broker = new LinkedHashMap<>();
        private final Map<String, Object> spec = new LinkedHashMap<>();
        private final List<String> differences = new ArrayList<>();
        private OptionalLong messages = OptionalLong.empty();
        private OptionalLong consumers = OptionalLong.empty();
        private OptionalLong deadLettered = OptionalLong.empty();

        Entry(Kind kind, Optional<String> service, String name) {
            this(kind, service, name, null);
        }

        Entry(Kind kind, Optional<String> service, String name, String routingKey) {
            this.kind = kind;
            this.service = service;
            this.name = name;
            this.routingKey = Optional.ofNullable(routingKey);
        }

        Entry differ(String key, Object onBroker, Object inSpec) {
            boolean same = onBroker instanceof JsonNode node ? Values.same(node, inSpec)
                    : Objects.equals(onBroker, inSpec);
            if (!same) {
                Object brokerValue = Values.plain(onBroker);
                Object specValue = Values.plain(inSpec);
                broker.put(key, brokerValue);
                spec.put(key, specValue);
                differences.add(key + " is " + Values.show(brokerValue) + " on the broker, " + Values.show(specValue)
                        + " in the spec");
            }
            return this;
        }

        boolean differs() {
            return !differences.isEmpty();
        }

        String differences() {
            return String.join("; ", differences);
        }

        Entry broker(String key, Object value) {
            broker.put(key, value);
            return this;
        }

        Entry spec(String key, Object value) {
            spec.put(key, value);
            return this;
        }

        Entry brokerValue(String key, Object value) {
            return broker(key, value);
        }

        Entry specValue(String key, Object value) {
            return spec(key, value);
        }

        Entry counts(BrokerState.Queue queue) {
            messages = queue.messages();
            consumers = queue.consumers();
            deadLettered = queue.deadLettered();
            return this;
        }

        PlanEntry build(Action action, String reason) {
            return new PlanEntry(action, kind, service, name, routingKey, reason, broker, spec, messages, consumers,
                    deadLettered);
        }
    }
}
