package io.github.retrytopology.operations.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.rabbitmq.http.client.domain.BindingInfo;
import com.rabbitmq.http.client.domain.DestinationType;
import com.rabbitmq.http.client.domain.ExchangeInfo;
import com.rabbitmq.http.client.domain.PolicyInfo;
import com.rabbitmq.http.client.domain.QueueInfo;
import io.github.retrytopology.model.QueueType;
import io.github.retrytopology.model.topology.QueueArguments;
import io.github.retrytopology.model.topology.QueueSetting;
import io.github.retrytopology.operations.broker.ManagementApi;
import io.github.retrytopology.operations.broker.ManagementApiException;
import io.github.retrytopology.operations.broker.QueueStatistics;
import io.github.retrytopology.operations.broker.VhostDefinitions;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * What one virtual host of a broker holds, read in two requests: its definitions (queues, exchanges, bindings,
 * policies and operator policies) and its queues' totals (messages, ready, unacknowledged, state, members), which the
 * queues keep themselves; a third reads the statistics database's {@code messages_dlx} only where a quorum queue
 * holds messages that are neither ready nor unacknowledged.
 *
 * <p>What decides is taken from the definitions, which are the broker's state as of the request: a queue's type,
 * and the policy that applies to it, worked out from the policies' patterns, targets and priorities as RabbitMQ
 * works it out. Totals lag by up to the broker's collection interval (5 s by default) for quorum queues and are
 * missing for a queue created a moment ago, and neither gives consumers: the plan shows them, and what must be exact
 * (messages and consumers before a queue is deleted or migrated) is counted live over AMQP.
 */
record BrokerState(Map<String, Queue> queues, Map<String, Exchange> exchanges, List<Binding> bindings,
        PolicyIndex policies, PolicyIndex operatorPolicies, int nodes) {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectNode EMPTY = JsonNodeFactory.instance.objectNode();

    BrokerState {
        queues = Map.copyOf(queues);
        exchanges = Map.copyOf(exchanges);
        bindings = List.copyOf(bindings);
    }

    /**
     * Reads a virtual host. The requests go at the same time.
     *
     * @param countNodes whether to read how many nodes the cluster has, one more request
     * @throws IOException if the API cannot be reached, refuses the user, or the virtual host does not exist
     */
    static BrokerState read(ManagementApi api, String vhost, boolean countNodes) throws IOException {
        ManagementApi.VhostReading read;
        try {
            read = api.readTotals(vhost, countNodes);
        } catch (ManagementApiException e) {
            if (e.isVhostMissing()) {
                throw new IOException("the virtual host '" + vhost + "' does not exist on " + api.base()
                        + "; create it and give your users access to it first", e);
            }
            throw e;
        }
        BrokerState state = of(read.definitions(), read.statistics(), read.nodes());
        if (state.queues.values().stream().anyMatch(queue -> queue.messages().isEmpty())) {
            // A queue the totals do not count: created a moment ago, or on a node that is down, which RabbitMQ 4.3
            // lists without its counts and not as down. The statistics say which.
            state = state.withStatistics(api.queueStatistics(vhost, List.of("name", "state", "messages",
                    "messages_ready", "messages_unacknowledged")));
        }
        if (state.queues.values().stream().noneMatch(queue -> queue.heldBack().orElse(0) > 0)) {
            return state;
        }
        // Dead-lettered messages waiting, or on RabbitMQ 4.3 messages waiting for a delayed retry: only the
        // statistics tell which.
        return state.withDeadLettered(api.queueStatistics(vhost, List.of("name", "messages_dlx")));
    }

    /**
     * The queues whose dead-lettered messages wait to be forwarded to a target that exists, and have not been seen
     * to fall since: a worker that forwards them empties them within milliseconds, one that is stuck keeps them.
     */
    List<Queue> notSeenForwarding() {
        return queues.values().stream()
                .filter(queue -> queue.deadLettered().orElse(0) > 0)
                .filter(queue -> queue.deadLetteredLater().isEmpty() || queue.keepsDeadLettered())
                .filter(queue -> deadLetterTarget(queue).filter(this::exists).isPresent())
                .toList();
    }

    /**
     * Reads {@code messages_dlx} of the queues again once the broker has collected its statistics anew, so that
     * a queue that does not forward can be told from one that merely had messages on their way.
     *
     * @param after at least the broker's statistics interval
     * @param sleeper what waits it out
     */
    BrokerState readDeadLetteredAgain(ManagementApi api, String vhost, Duration after, Sleeper sleeper)
            throws IOException {
        try {
            sleeper.sleep(after);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("reading the broker was interrupted");
        }
        return withDeadLetteredLater(api.queueStatistics(vhost, List.of("name", "messages_dlx")));
    }

    /**
     * The same state, with the counts of these queues as the broker gives them at this moment: their ready messages
     * and consumers counted live, plus the messages their consumers hold and the dead-lettered ones waiting, as the
     * statistics last had them. A queue the statistics have not reached yet holds no such messages.
     */
    BrokerState withLiveCounts(Map<String, LiveCounts.Count> live) {
        Map<String, Queue> counted = new LinkedHashMap<>(queues);
        live.forEach((name, count) -> counted.computeIfPresent(name, (same, queue) -> queue.counted(count)));
        return new BrokerState(counted, exchanges, bindings, policies, operatorPolicies, nodes);
    }

    /** The same state, where its queues lack a count or a state, with those these statistics give. */
    BrokerState withStatistics(List<QueueStatistics> statistics) {
        return with(statistics, (queue, read) -> queue.messages().isPresent() ? queue : queue.withStatistics(read));
    }

    /** The same state, with {@code messages_dlx} as these statistics give it. */
    BrokerState withDeadLettered(List<QueueStatistics> statistics) {
        return with(statistics, (queue, read) -> queue.deadLettered(read.deadLetteredCount()));
    }

    /** The same state, with {@code messages_dlx} as these statistics, read later, say. */
    BrokerState withDeadLetteredLater(List<QueueStatistics> statistics) {
        return with(statistics, (queue, read) -> queue.deadLetteredLater(read.deadLetteredCount()));
    }

    /** The same state, each queue these statistics list changed by {@code change}. */
    private BrokerState with(List<QueueStatistics> statistics, BiFunction<Queue, QueueStatistics, Queue> change) {
        Map<String, Queue> changed = new LinkedHashMap<>(queues);
        for (QueueStatistics read : statistics) {
            changed.computeIfPresent(read.name(), (name, queue) -> change.apply(queue, read));
        }
        return new BrokerState(changed, exchanges, bindings, policies, operatorPolicies, nodes);
    }

    /** The state that the management API's definitions and statistics of a virtual host describe. */
    static BrokerState of(VhostDefinitions definitions, List<QueueStatistics> statistics, int nodes) {
        Map<String, QueueStatistics> stats = new HashMap<>();
        statistics.forEach(queue -> stats.put(queue.name(), queue));
        Map<String, Queue> queues = new LinkedHashMap<>();
        for (QueueInfo queue : definitions.queues()) {
            queues.put(queue.getName(), Queue.of(queue, Optional.ofNullable(stats.get(queue.getName()))));
        }
        Map<String, Exchange> exchanges = new LinkedHashMap<>();
        for (ExchangeInfo exchange : definitions.exchanges()) {
            exchanges.put(exchange.getName(), new Exchange(exchange.getName(), exchange.getType(), exchange.isDurable(),
                    exchange.isAutoDelete(), exchange.isInternal()));
        }
        List<Binding> bindings = new ArrayList<>();
        for (BindingInfo binding : definitions.bindings()) {
            bindings.add(new Binding(binding.getSource(), binding.getDestination(),
                    binding.getDestinationType() == DestinationType.EXCHANGE ? "exchange" : "queue",
                    binding.getRoutingKey(), object(binding.getArguments())));
        }
        List<Policy> policies = new ArrayList<>();
        for (PolicyInfo policy : definitions.policies()) {
            policies.add(Policy.of(policy.getName(), policy, false));
        }
        List<Policy> operatorPolicies = new ArrayList<>();
        for (PolicyInfo policy : definitions.operatorPolicies()) {
            operatorPolicies.add(Policy.of(policy.getName(), policy, true));
        }
        return new BrokerState(queues, exchanges, bindings, new PolicyIndex(policies), new PolicyIndex(operatorPolicies),
                nodes);
    }

    Optional<Queue> queue(String name) {
        return Optional.ofNullable(queues.get(name));
    }

    /** The policy that applies to a queue: the highest-priority one whose pattern and target match it. */
    Optional<Policy> appliedPolicy(Queue queue) {
        return policies.matching(queue.name(), queue.type()).stream().findFirst();
    }

    /** The operator policy that applies to a queue, found the same way. */
    Optional<Policy> appliedOperatorPolicy(Queue queue) {
        return operatorPolicies.matching(queue.name(), queue.type()).stream().findFirst();
    }

    /**
     * Where a queue dead-letters on the broker now: its arguments win over its policy, as in RabbitMQ.
     * Empty if it does not dead-letter.
     */
    Optional<DeadLetterTarget> deadLetterTarget(Queue queue) {
        ObjectNode policy = appliedPolicy(queue).map(Policy::definition).orElse(EMPTY);
        JsonNode exchange = setting(queue, policy, QueueSetting.DEAD_LETTER_EXCHANGE.name());
        if (exchange.isMissingNode()) {
            return Optional.empty();
        }
        return Optional.of(new DeadLetterTarget(exchange.asText(),
                setting(queue, policy, QueueSetting.DEAD_LETTER_ROUTING_KEY.name()).asText(null),
                setting(queue, policy, QueueArguments.DEAD_LETTER_STRATEGY).asText(QueueArguments.AT_MOST_ONCE)));
    }

    /** A setting of a queue: its argument, which wins, else its policy's. */
    private static JsonNode setting(Queue queue, ObjectNode policy, String key) {
        JsonNode argument = queue.arguments().path(QueueArguments.argument(key));
        return argument.isMissingNode() ? policy.path(key) : argument;
    }

    /** Whether a dead-letter target exists: the exchange, or for the default exchange the queue it names. */
    boolean exists(DeadLetterTarget target) {
        if (target.exchange().isEmpty()) {
            return target.routingKey() == null || queues.containsKey(target.routingKey());
        }
        return exchanges.containsKey(target.exchange()) || target.exchange().startsWith("amq.");
    }

    /** A JSON object of the broker's, such as a queue's arguments, as the planner compares them. */
    private static ObjectNode object(Map<String, Object> value) {
        return value == null || value.isEmpty() ? EMPTY : JSON.valueToTree(value);
    }

    /**
     * A queue.
     *
     * @param type {@code classic}, {@code quorum} or {@code stream}: RabbitMQ 4's export says it; before, a queue
     *     declared without {@code x-queue-type} is classic
     * @param messages the messages it holds, dead-lettered ones waiting to be forwarded and, on RabbitMQ 4.3, those
     *     waiting for a delayed retry included; empty when the broker has not counted it yet and it was not counted
     *     live
     * @param ready those of them ready for delivery
     * @param unacknowledged those of them its consumers hold, by the broker's totals
     * @param consumers its consumers, counted live; empty for a queue not counted live
     * @param deadLettered the messages a quorum queue has dead-lettered and not yet forwarded ({@code messages_dlx}):
     *     0 where a quorum queue holds no message but ready and unacknowledged ones, empty where unknown
     * @param state what the broker says of it, such as {@code running}, or {@code down} when its node is; empty
     *     when the broker has no statistics for it yet
     * @param members the nodes of a quorum queue's members; empty for other types
     * @param online those of its members that are up
     * @param deadLetteredLater {@code messages_dlx} read again, the latest of up to two readings a statistics
     *     interval apart, when the first reading found dead-lettered messages waiting for a target that exists
     */
    record Queue(String name, boolean durable, boolean autoDelete, ObjectNode arguments, String type,
            OptionalLong messages, OptionalLong ready, OptionalLong unacknowledged, OptionalLong consumers,
            OptionalLong deadLettered, Optional<String> state, List<String> members, List<String> online,
            OptionalLong deadLetteredLater) {

        static Queue of(QueueInfo definition, Optional<QueueStatistics> totals) {
            ObjectNode arguments = object(definition.getArguments());
            String type = definition.getType() != null ? definition.getType()
                    : arguments.path(QueueArguments.QUEUE_TYPE).asText(QueueType.CLASSIC.id());
            Queue queue = new Queue(definition.getName(), definition.isDurable(), definition.isAutoDelete(), arguments,
                    type, count(totals, QueueStatistics::messagesCount), count(totals, QueueStatistics::readyCount),
                    count(totals, QueueStatistics::unacknowledgedCount), count(totals, QueueStatistics::consumersCount),
                    count(totals, QueueStatistics::deadLetteredCount), totals.flatMap(QueueStatistics::stateIfKnown),
                    totals.map(QueueStatistics::members).orElse(List.of()),
                    totals.map(QueueStatistics::online).orElse(List.of()), OptionalLong.empty());
            return QueueType.QUORUM.id().equals(type) && queue.deadLettered.isEmpty()
                    && queue.heldBack().orElse(-1) == 0 ? queue.deadLettered(OptionalLong.of(0)) : queue;
        }

        /**
         * The messages it holds that are neither ready nor unacknowledged: a quorum queue's dead-lettered ones
         * waiting to be forwarded, and on RabbitMQ 4.3 those waiting for a delayed retry. Empty where not counted.
         */
        OptionalLong heldBack() {
            if (messages.isEmpty() || ready.isEmpty() || unacknowledged.isEmpty()) {
                return OptionalLong.empty();
            }
            return OptionalLong.of(Math.max(0, messages.getAsLong() - ready.getAsLong() - unacknowledged.getAsLong()));
        }

        /** The same queue with its ready messages and consumers counted live. */
        Queue counted(LiveCounts.Count live) {
            long held = unacknowledged.orElse(0) + heldBack().orElse(deadLettered.orElse(0));
            return new Queue(name, durable, autoDelete, arguments, type, OptionalLong.of(live.ready() + held),
                    OptionalLong.of(live.ready()), unacknowledged, OptionalLong.of(live.consumers()), deadLettered,
                    state, members, online, deadLetteredLater);
        }

        /** The same queue, its counts and state those of these statistics. */
        Queue withStatistics(QueueStatistics statistics) {
            return new Queue(name, durable, autoDelete, arguments, type, statistics.messagesCount(),
                    statistics.readyCount(), statistics.unacknowledgedCount(), consumers, deadLettered,
                    statistics.stateIfKnown().or(() -> state), members, online, deadLetteredLater);
        }

        Queue deadLettered(OptionalLong read) {
            return new Queue(name, durable, autoDelete, arguments, type, messages, ready, unacknowledged, consumers,
                    read, state, members, online, deadLetteredLater);
        }

        /** Whether {@code messages_dlx}, read again later, had not fallen from the first reading. */
        boolean keepsDeadLettered() {
            long before = deadLettered.orElse(0);
            return before > 0 && deadLetteredLater.isPresent() && deadLetteredLater.getAsLong() >= before;
        }

        Queue deadLetteredLater(OptionalLong later) {
            return new Queue(name, durable, autoDelete, arguments, type, messages, ready, unacknowledged, consumers,
                    deadLettered, state, members, online, later);
        }

        private static OptionalLong count(Optional<QueueStatistics> statistics,
                Function<QueueStatistics, OptionalLong> field) {
            return statistics.map(field).orElse(OptionalLong.empty());
        }

        /** Whether it is known to hold nothing: no message, dead-lettered or not. */
        boolean knownEmpty() {
            return messages.isPresent() && messages.getAsLong() == 0
                    && (deadLettered.isEmpty() || deadLettered.getAsLong() == 0);
        }
    }

    record Exchange(String name, String type, boolean durable, boolean autoDelete, boolean internal) {
    }

    /** A binding; {@code destinationType} is {@code queue} or {@code exchange}. */
    record Binding(String source, String destination, String destinationType, String routingKey, ObjectNode arguments) {

        /** The key the management API names it by in a URI: the routing key, when it has no arguments. */
        Optional<String> propertiesKey() {
            return arguments.isEmpty() ? Optional.of(routingKey) : Optional.empty();
        }
    }

    /** A policy or an operator policy. */
    record Policy(String name, String pattern, String applyTo, int priority, ObjectNode definition, boolean operator) {

        static Policy of(String name, PolicyInfo policy, boolean operator) {
            return new Policy(name, policy.getPattern(), policy.getApplyTo() == null ? "all" : policy.getApplyTo(),
                    policy.getPriority(), object(policy.getDefinition()), operator);
        }

        /** Whether it applies to queues of this type, whatever their name. */
        boolean appliesToType(String type) {
            return switch (applyTo) {
                case "queues", "all" -> true;
                case "classic_queues" -> QueueType.CLASSIC.id().equals(type);
                case "quorum_queues" -> QueueType.QUORUM.id().equals(type);
                case "streams" -> QueueArguments.STREAM.equals(type);
                default -> false;
            };
        }
    }

    /**
     * Where a queue dead-letters.
     *
     * @param exchange the exchange, {@code ""} for the default one
     * @param routingKey the routing key, which names the queue on the default exchange; null for the message's own
     * @param strategy {@code at-most-once} or {@code at-least-once}
     */
    record DeadLetterTarget(String exchange, @Nullable String routingKey, String strategy) {

        String describe() {
            return exchange.isEmpty() ? "queue '" + routingKey + "'" : "exchange '" + exchange + "'";
        }
    }
}
