package io.github.retrytopology.operations.plan;

import com.fasterxml.jackson.core.type.TypeReference;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ShutdownSignalException;
import io.github.retrytopology.model.Names;
import io.github.retrytopology.model.Names.QueueName;
import io.github.retrytopology.model.QueueNames;
import io.github.retrytopology.model.QueueType;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.topology.Binding;
import io.github.retrytopology.model.topology.Policy;
import io.github.retrytopology.model.topology.Queue;
import io.github.retrytopology.model.topology.QueueArguments;
import io.github.retrytopology.model.topology.QueueSetting;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.operations.broker.BrokerAccess;
import io.github.retrytopology.operations.broker.ManagementApi;
import io.github.retrytopology.operations.plan.ApplyReport.Outcome;
import io.github.retrytopology.operations.plan.BrokerState.DeadLetterTarget;
import io.github.retrytopology.operations.plan.PlanEntry.Action;
import io.github.retrytopology.operations.plan.PlanEntry.Kind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Does what a plan says, in an order that never leaves a message without its settings or its way out: policies
 * first, then the exchange, queues and bindings; then, when asked, the migrations; then, when asked, the
 * orphans, bindings before queues, a dead-letter source before its target, a queue before its policy.
 */
final class Applier {

    private static final TypeReference<Map<String, Object>> SETTINGS = new TypeReference<>() { };
    /** The settings of another policy that could drop a message from a migration's temporary queue. */
    private static final List<QueueSetting<?>> LIMITS = List.of(QueueSetting.MESSAGE_TTL, QueueSetting.EXPIRES,
            QueueSetting.MAX_LENGTH, QueueSetting.MAX_LENGTH_BYTES);

    private final RetrySpec spec;
    private final Topology topology;
    private final BrokerState broker;
    private final Plan plan;
    private final ManagementApi api;
    private final BrokerAccess access;
    private final ApplyOptions options;
    private final Consumer<String> progress;
    private final ApplyReport.Builder report;
    private final String vhost;
    private final QueueNames names;
    private final Map<String, Policy> specPolicies = new LinkedHashMap<>();
    /** The spec's policies by the queue each configures, which is not the one of its name for a kept queue. */
    private final Map<String, Policy> specPolicyOf;
    private final Set<String> deleted = new HashSet<>();
    private final Set<String> migrated = new HashSet<>();
    private @Nullable Connection connection;

    Applier(RetrySpec spec, BrokerState broker, Plan plan, ManagementApi api, BrokerAccess access, ApplyOptions options,
            Consumer<String> progress, ApplyReport.Builder report) {
        this.spec = spec;
        this.topology = Topology.of(spec);
        this.broker = broker;
        this.plan = plan;
        this.api = api;
        this.access = access;
        this.options = options;
        this.progress = progress;
        this.report = report;
        this.vhost = topology.vhost();
        this.names = spec.queueNames();
        topology.policies().forEach(policy -> specPolicies.put(policy.name(), policy));
        this.specPolicyOf = topology.policiesByQueue();
    }

    void apply() throws IOException {
        try {
            for (PlanEntry entry : entries(Kind.POLICY, Action.CREATE, Action.UPDATE)) {
                api.putPolicy(vhost, specPolicies.get(entry.name()));
                done(entry, entry.action() == Action.CREATE ? "created" : "updated: " + entry.reason());
            }
            for (PlanEntry entry : entries(Kind.EXCHANGE, Action.CREATE)) {
                api.putExchange(vhost, topology.exchanges().stream()
                        .filter(exchange -> exchange.name().equals(entry.name())).findFirst().orElseThrow());
                done(entry, "created");
            }
            for (PlanEntry entry : entries(Kind.QUEUE, Action.CREATE)) {
                api.putQueue(vhost, topology.queue(entry.name()));
                done(entry, "created");
            }
            for (PlanEntry entry : entries(Kind.BINDING, Action.CREATE, Action.UPDATE)) {
                api.bind(vhost, new Binding(spec.exchange(), entry.name(), entry.routingKey().orElseThrow()));
                done(entry, "bound to " + spec.exchange());
            }
            for (PlanEntry entry : entries(Kind.QUEUE, Action.CONFLICT)) {
                resolve(entry);
            }
            for (PlanEntry entry : entries(Kind.EXCHANGE, Action.CONFLICT)) {
                left(entry, entry.reason());
            }
            for (PlanEntry entry : entries(Kind.QUEUE, Action.RECREATE)) {
                migrate(entry);
            }
            for (PlanEntry entry : entries(Kind.QUEUE, Action.ORPHAN)) {
                if (options.migrate() && names.queue(entry.name()).orElseThrow().migration()) {
                    resumeMigration(entry);
                }
            }
            prune();
        } finally {
            if (connection != null) {
                connection.abort();
            }
        }
    }

    private List<PlanEntry> entries(Kind kind, Action... actions) {
        List<Action> wanted = List.of(actions);
        return plan.entries().stream().filter(entry -> entry.kind() == kind && wanted.contains(entry.action())).toList();
    }

    private void done(PlanEntry entry, String detail) {
        progress.accept(report.add(entry, Outcome.DONE, detail).describe());
    }

    private void left(PlanEntry entry, String detail) {
        progress.accept(report.add(entry, Outcome.LEFT, detail).describe());
    }

    /**
     * A queue in conflict: only a missing dead-letter target is ours to mend, by creating it (done above).
     * RabbitMQ 3.10 forwards the messages a quorum queue kept for a missing target only minutes later, or at
     * once when the queue's policy changes: so its policy is set again, with another priority, then with its own.
     */
    private void resolve(PlanEntry entry) throws IOException {
        if (!entry.spec().keySet().equals(Set.of(PlanEntry.DEAD_LETTER_TARGET))) {
            left(entry, entry.reason() + "; apply leaves that to a person");
            return;
        }
        Object target = entry.spec().get(PlanEntry.DEAD_LETTER_TARGET);
        String mended = topology.queues().stream().anyMatch(queue -> queue.name().equals(target))
                ? "its dead-letter target " + target + " was created"
                : "its policy now names the spec's dead-letter target instead of " + target;
        Policy policy = specPolicyOf.get(entry.name());
        boolean keeps = broker.queue(entry.name()).filter(queue -> QueueType.QUORUM.id().equals(queue.type())).isPresent()
                && entry.deadLettered().orElse(1) > 0;
        if (keeps && policy != null) {
            api.putPolicy(vhost, new Policy(policy.name(), policy.pattern(), policy.applyTo(), policy.priority() + 1,
                    policy.definition()));
            api.putPolicy(vhost, policy);
            done(entry, mended + ", and its policy set again so that RabbitMQ forwards the messages it kept");
        } else {
            done(entry, mended);
        }
    }

    private void migrate(PlanEntry entry) throws IOException {
        if (!options.migrate()) {
            left(entry, entry.reason() + ": apply --migrate recreates it, moving its messages to a temporary queue and back");
            return;
        }
        String queue = entry.name();
        String temporary = Names.migrationQueue(queue);
        long consumers = consumersNow(queue);
        if (consumers > 0) {
            left(entry, "not migrated: it has " + Words.count(consumers, "consumer")
                    + "; stop them, and run apply --migrate again");
            return;
        }
        Optional<String> refusal = refusal(queue, temporary);
        if (refusal.isPresent()) {
            left(entry, "not migrated: " + refusal.get());
            return;
        }
        Migration migration = new Migration(api, this::channel, vhost);
        List<Redirect> redirects = redirects(queue, temporary);
        Queue wanted = topology.queue(queue);
        List<Binding> specBindings = topology.bindings().stream().filter(binding -> binding.queue().equals(queue)).toList();
        Migration.Moved moved = migration.recreate(wanted, broker.queue(queue).orElseThrow().type(), temporary,
                specBindings, () -> {
                    for (Redirect redirect : redirects) {
                        api.putPolicy(vhost, redirect.toTemporary());
                    }
                }, () -> {
                    for (Redirect redirect : redirects) {
                        api.putPolicy(vhost, redirect.restored());
                    }
                });
        migrated.add(queue);
        done(entry, "recreated with " + entry.spec().entrySet().stream()
                .map(setting -> setting.getKey() + " " + Values.show(setting.getValue()))
                .collect(Collectors.joining(", ")) + "; " + Words.count(moved.out(), "message")
                + " moved to " + temporary + ", " + moved.back() + " back");
    }

    /** Why a queue cannot be migrated safely now, if it cannot. */
    private Optional<String> refusal(String queue, String temporary) {
        if (!Names.fitsBroker(temporary)) {
            return Optional.of("the temporary queue's name, " + temporary + ", would be over 255 bytes");
        }
        BrokerState.Queue present = broker.queue(queue).orElseThrow();
        if (present.deadLettered().orElse(0) > 0) {
            return Optional.of("it holds " + Words.count(present.deadLettered().getAsLong(), "dead-lettered message")
                    + " not yet forwarded, which RabbitMQ would drop with it");
        }
        for (PolicyIndex index : List.of(broker.policies(), broker.operatorPolicies())) {
            for (BrokerState.Policy policy : index.matching(temporary, QueueType.CLASSIC.id())) {
                for (QueueSetting<?> limit : LIMITS) {
                    if (policy.definition().has(limit.name())) {
                        return Optional.of((policy.operator() ? "operator policy '" : "policy '") + policy.name()
                                + "' would set " + limit + " on the temporary queue " + temporary
                                + ", which could drop messages");
                    }
                }
            }
        }
        for (BrokerState.Queue source : broker.queues().values()) {
            if (!source.name().equals(queue) && deadLettersTo(source, queue) && !redirectable(source)
                    && !QueueType.QUORUM.id().equals(source.type()) && source.messages().orElse(0) > 0) {
                return Optional.of(source.name() + " dead-letters to it at most once, from its arguments, and holds "
                        + Words.count(source.messages().getAsLong(), "message") + " that could expire while it is recreated; "
                        + "run apply --migrate again once they have");
            }
        }
        return Optional.empty();
    }

    /** Where a queue dead-letters once the policies of this apply are set. */
    private Optional<DeadLetterTarget> targetOf(BrokerState.Queue queue) {
        Policy policy = specPolicyOf.get(queue.name());
        Optional<String> exchange = Optional.ofNullable(policy)
                .filter(ours -> !queue.arguments().has(QueueSetting.DEAD_LETTER_EXCHANGE.argument()))
                .flatMap(ours -> QueueSetting.DEAD_LETTER_EXCHANGE.in(ours.definition()));
        if (exchange.isPresent()) {
            return Optional.of(new DeadLetterTarget(exchange.get(),
                    QueueSetting.DEAD_LETTER_ROUTING_KEY.in(policy.definition()).orElse(null),
                    QueueSetting.DEAD_LETTER_STRATEGY.in(policy.definition()).orElse(QueueArguments.AT_MOST_ONCE)));
        }
        return broker.deadLetterTarget(queue);
    }

    private boolean deadLettersTo(BrokerState.Queue source, String queue) {
        return targetOf(source).filter(target -> target.exchange().isEmpty() && queue.equals(target.routingKey()))
                .isPresent();
    }

    /** Whether a queue's dead-lettering comes from a policy of ours, which a migration can point elsewhere. */
    private boolean redirectable(BrokerState.Queue source) {
        return !source.arguments().has(QueueSetting.DEAD_LETTER_ROUTING_KEY.argument()) && policyOf(source).isPresent();
    }

    /** The policy of ours that configures a queue once this apply has set the policies. */
    private Optional<Policy> policyOf(BrokerState.Queue queue) {
        Policy policy = specPolicyOf.get(queue.name());
        if (policy != null) {
            return Optional.of(policy);
        }
        // A policy of the spec configures the spec's queue alone once set, even where it has this queue's name.
        return names.queue(queue.name()).filter(name -> !name.migration()).map(QueueName::policy)
                .filter(name -> !specPolicies.containsKey(name))
                .flatMap(broker.policies()::named)
                .map(present -> new Policy(present.name(), present.pattern(), present.applyTo(), present.priority(),
                        Values.JSON.convertValue(present.definition(),
                                SETTINGS)));
    }

    private List<Redirect> redirects(String queue, String temporary) {
        List<Redirect> redirects = new ArrayList<>();
        for (BrokerState.Queue source : broker.queues().values()) {
            if (!source.name().equals(queue) && !deleted.contains(source.name()) && deadLettersTo(source, queue)
                    && redirectable(source)) {
                Policy policy = policyOf(source).orElseThrow();
                Map<String, Object> definition = new LinkedHashMap<>(policy.definition());
                QueueSetting.DEAD_LETTER_ROUTING_KEY.put(definition, temporary);
                redirects.add(new Redirect(new Policy(policy.name(), policy.pattern(), policy.applyTo(), policy.priority(),
                        definition), policy));
            }
        }
        return redirects;
    }

    /** A policy pointed at a migration's temporary queue while its target is recreated, and as it was. */
    private record Redirect(Policy toTemporary, Policy restored) {
    }

    /** A temporary queue left by an interrupted migration: its messages go back to the queue it was made for. */
    private void resumeMigration(PlanEntry entry) throws IOException {
        QueueName name = names.queue(entry.name()).orElseThrow();
        String queue = name.topologyQueue();
        boolean wanted = topology.queues().stream().anyMatch(q -> q.name().equals(queue));
        if (!wanted) {
            left(entry, "not moved back: " + queue + " is not in the spec any more; move its messages by hand");
            return;
        }
        Migration migration = new Migration(api, this::channel, vhost);
        List<Binding> specBindings = topology.bindings().stream().filter(binding -> binding.queue().equals(queue)).toList();
        long back = migration.finish(topology.queue(queue), entry.name(), specBindings);
        deleted.add(entry.name());
        done(entry, "moved its " + Words.count(back, "message") + " back to " + queue + ", and deleted it");
    }

    private void prune() throws IOException {
        List<PlanEntry> bindings = entries(Kind.BINDING, Action.ORPHAN).stream()
                .filter(entry -> !deleted.contains(entry.name()))
                .toList();
        List<PlanEntry> queues = new ArrayList<>(entries(Kind.QUEUE, Action.ORPHAN).stream()
                .filter(entry -> !deleted.contains(entry.name()))
                .toList());
        List<PlanEntry> policies = entries(Kind.POLICY, Action.ORPHAN);
        if (!options.prune()) {
            for (PlanEntry entry : bindings) {
                left(entry, entry.reason() + "; apply --prune removes it");
            }
            for (PlanEntry entry : queues) {
                left(entry, entry.reason() + "; apply --prune deletes it once it is empty and unused");
            }
            for (PlanEntry entry : policies) {
                left(entry, entry.reason() + "; apply --prune deletes it with its queue");
            }
            return;
        }
        for (PlanEntry entry : bindings) {
            boolean orphan = topology.queues().stream().noneMatch(q -> q.name().equals(entry.name()));
            long consumers = orphan && broker.queue(entry.name()).isPresent() ? consumersNow(entry.name()) : 0;
            if (consumers > 0) {
                left(entry, "kept: its queue has " + Words.count(consumers, "consumer"));
                continue;
            }
            unbind(entry);
            done(entry, "removed");
        }
        Map<String, String> kept = new LinkedHashMap<>();
        queues.sort(Comparator.comparing((PlanEntry entry) -> order(entry.name())).thenComparing(PlanEntry::name));
        for (PlanEntry entry : queues) {
            Optional<String> source = stayingSourceOf(entry.name());
            Optional<String> refused = source.isPresent()
                    ? Optional.of("it is the dead-letter target of " + source.get() + ", which stays")
                    : deleteIfUnused(broker.queue(entry.name()).orElseThrow());
            if (refused.isPresent()) {
                kept.put(entry.name(), refused.get());
                left(entry, "kept: " + refused.get());
            } else {
                deleted.add(entry.name());
                done(entry, "deleted, empty and without consumers");
            }
        }
        for (PlanEntry entry : policies) {
            String queue = names.policy(entry.name()).orElseThrow().name();
            boolean stays = broker.queue(queue).isPresent() && !deleted.contains(queue);
            boolean specQueue = topology.queues().stream().anyMatch(q -> q.name().equals(queue));
            if (stays && !specQueue) {
                left(entry, "kept: its queue stays (" + kept.getOrDefault(queue, "an orphan") + ") and needs its settings");
            } else if (stays && plan.entry(Kind.QUEUE, queue).action() == Action.RECREATE && !migrated.contains(queue)) {
                left(entry, "kept: its queue takes its settings from it until apply --migrate recreates the queue");
            } else {
                api.deletePolicy(vhost, entry.name());
                done(entry, "deleted");
            }
        }
    }

    /**
     * A queue that stays and dead-letters to this one, if there is any: orphans go sources first (tiers, then the
     * service's queue, then its parking lot), so that by an orphan's turn each of its sources is gone or stays.
     */
    private Optional<String> stayingSourceOf(String queue) {
        return broker.queues().values().stream()
                .filter(source -> !source.name().equals(queue) && !deleted.contains(source.name()))
                .filter(source -> targetOf(source).filter(t -> t.exchange().isEmpty() && queue.equals(t.routingKey()))
                        .isPresent())
                .map(BrokerState.Queue::name)
                .sorted()
                .findFirst();
    }

    /** Tier queues and temporary queues go before service queues, which go before parking lots. */
    private int order(String queue) {
        QueueName name = names.queue(queue).orElseThrow();
        if (name.migration()) {
            return 0;
        }
        return switch (name.role()) {
            case TIER -> 1;
            case SERVICE -> 2;
            case PARKING_LOT -> 3;
        };
    }

    private void unbind(PlanEntry entry) throws IOException {
        String routingKey = entry.routingKey().orElseThrow();
        BrokerState.Binding binding = broker.bindings().stream()
                .filter(b -> b.source().equals(spec.exchange()) && b.destination().equals(entry.name())
                        && b.routingKey().equals(routingKey) && "queue".equals(b.destinationType()))
                .findFirst().orElseThrow();
        if (binding.propertiesKey().isPresent()) {
            api.unbind(vhost, spec.exchange(), entry.name(), binding.propertiesKey().get());
            return;
        }
        try (Channel channel = channel()) {
            channel.queueUnbind(entry.name(), spec.exchange(), routingKey,
                    Values.JSON.convertValue(binding.arguments(),
                            SETTINGS));
        } catch (TimeoutException e) {
            throw new IOException("the channel did not close in time", e);
        }
    }

    /**
     * Deletes an orphan queue that holds nothing and has no consumer, over AMQP. The broker itself checks a classic
     * queue, in the same step as it deletes it. RabbitMQ cannot delete a quorum queue on that condition (it closes
     * the connection for asking): it is checked by a passive declaration, and deleted on the same channel at once.
     */
    private Optional<String> deleteIfUnused(BrokerState.Queue queue) throws IOException {
        // A quorum queue's dead-lettered messages waiting to be forwarded, and on RabbitMQ 4.3 those waiting for a
        // delayed retry, are neither ready nor unacknowledged: a passive declaration does not count them.
        if (queue.deadLettered().orElse(0) > 0) {
            return Optional.of("it holds " + Words.count(queue.deadLettered().getAsLong(), "dead-lettered message"));
        }
        if (queue.heldBack().orElse(0) > 0) {
            return Optional.of("it holds " + Words.count(queue.heldBack().getAsLong(), "message")
                    + " neither ready nor delivered: dead-lettered and waiting to be forwarded, or waiting for a delayed "
                    + "retry");
        }
        if (QueueType.QUORUM.id().equals(queue.type()) && queue.heldBack().isEmpty() && queue.messages().orElse(1) > 0) {
            return Optional.of("the broker has not counted its dead-lettered messages yet; run apply --prune again in a "
                    + "few seconds");
        }
        boolean quorum = QueueType.QUORUM.id().equals(queue.type());
        try (Channel channel = channel()) {
            if (quorum) {
                Optional<String> inUse = inUse(channel.queueDeclarePassive(queue.name()));
                if (inUse.isPresent()) {
                    return inUse;
                }
                channel.queueDelete(queue.name());
            } else {
                channel.queueDelete(queue.name(), true, true);
            }
            return Optional.empty();
        } catch (IOException e) {
            if (!(e.getCause() instanceof ShutdownSignalException refusal) || refusal.isHardError()
                    || replyCode(refusal) != AMQP.PRECONDITION_FAILED) {
                throw e;
            }
            // Refused as in use: what uses it, read now.
            try (Channel channel = channel()) {
                return Optional.of(inUse(channel.queueDeclarePassive(queue.name()))
                        .orElse("the broker refused to delete it as in use"));
            } catch (TimeoutException timeout) {
                throw new IOException("the channel did not close in time", timeout);
            }
        } catch (TimeoutException e) {
            throw new IOException("the channel did not close in time", e);
        }
    }

    /** What keeps a queue from being deleted, as a passive declaration counts it; empty if nothing does. */
    private static Optional<String> inUse(AMQP.Queue.DeclareOk state) {
        if (state.getConsumerCount() > 0) {
            return Optional.of("it has " + Words.count(state.getConsumerCount(), "consumer"));
        }
        if (state.getMessageCount() > 0) {
            return Optional.of("it holds " + Words.count(state.getMessageCount(), "message"));
        }
        return Optional.empty();
    }

    private static int replyCode(ShutdownSignalException refusal) {
        return refusal.getReason() instanceof AMQP.Channel.Close close ? close.getReplyCode() : 0;
    }

    /**
     * The consumers a queue has now, as a passive declaration counts them: the statistics' count lags by up to
     * their interval, and a consumer that a person stopped a moment ago must not stop a change, nor one started
     * a moment ago be missed.
     */
    private long consumersNow(String queue) throws IOException {
        try (Channel channel = channel()) {
            return channel.queueDeclarePassive(queue).getConsumerCount();
        } catch (TimeoutException e) {
            throw new IOException("the channel did not close in time", e);
        }
    }

    private Channel channel() throws IOException {
        if (connection == null || !connection.isOpen()) {
            connection = access.connect(vhost, "retry-apply");
        }
        return connection.createChannel();
    }
}
