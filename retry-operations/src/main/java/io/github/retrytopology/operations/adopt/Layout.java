package io.github.retrytopology.operations.adopt;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.retrytopology.model.QueueType;
import io.github.retrytopology.model.topology.QueueArguments;
import io.github.retrytopology.model.topology.QueueSetting;
import io.github.retrytopology.operations.adopt.Definitions.Binding;
import io.github.retrytopology.operations.adopt.Definitions.Exchange;
import io.github.retrytopology.operations.adopt.Definitions.Policy;
import io.github.retrytopology.operations.adopt.Definitions.Queue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.jspecify.annotations.Nullable;

/**
 * The objects of a virtual host, indexed as messages travel through them: the bindings out of each exchange and
 * into each queue and exchange, and each queue's settings as the broker applies them, from its arguments, the
 * policy that applies to it and the operator policy that applies to it.
 *
 * <p>As in RabbitMQ, at most one policy and one operator policy apply to an object: the matching one of the
 * highest priority (equal priorities are undefined in RabbitMQ; here the first by name). A queue's
 * dead-letter exchange and routing key come from its argument when it has one, else from its policy; its message
 * TTL and delivery limit are the lowest of its argument, its policy's and its operator policy's, as RabbitMQ
 * resolves them (measured on 3.10.8 for the TTL: an argument of 60 s under a policy of 1 s expires messages after
 * 1 s).
 */
final class Layout {

    /** The exchanges every virtual host has, never exported, by type. */
    private static final Map<String, String> BUILT_IN = Map.of(
            "", "direct",
            "amq.direct", "direct",
            "amq.fanout", "fanout",
            "amq.topic", "topic",
            "amq.headers", "headers",
            "amq.match", "headers");

    private static final Comparator<Policy> PRECEDENCE =
            Comparator.comparingInt(Policy::priority).reversed().thenComparing(Policy::name);

    private final Definitions definitions;
    private final Map<String, Exchange> exchanges = new TreeMap<>();
    private final Map<String, List<Binding>> bySource = new HashMap<>();
    private final Map<String, List<Binding>> intoQueue = new HashMap<>();
    private final Map<String, QueueView> views = new TreeMap<>();
    private final Map<String, Optional<Policy>> exchangePolicies = new HashMap<>();
    private final Map<Policy, List<String>> policyQueues = new LinkedHashMap<>();
    private final Map<Policy, List<String>> policyExchanges = new LinkedHashMap<>();
    private final Map<Policy, Pattern> patterns = new LinkedHashMap<>();
    private final List<Policy> unreadable = new ArrayList<>();

    private Layout(Definitions definitions) {
        this.definitions = definitions;
        definitions.exchanges().forEach(exchange -> exchanges.put(exchange.name(), exchange));
        for (Binding binding : definitions.bindings()) {
            bySource.computeIfAbsent(binding.source(), name -> new ArrayList<>()).add(binding);
            if (binding.toQueue()) {
                intoQueue.computeIfAbsent(binding.destination(), name -> new ArrayList<>()).add(binding);
            }
        }
        for (Policy policy : definitions.policies()) {
            policyQueues.put(policy, new ArrayList<>());
            policyExchanges.put(policy, new ArrayList<>());
            try {
                patterns.put(policy, Pattern.compile(policy.pattern()));
            } catch (PatternSyntaxException e) {
                unreadable.add(policy);
            }
        }
        for (Queue queue : definitions.queues()) {
            Optional<Policy> policy = applied(queue.name(), queue.type(), false);
            Optional<Policy> operator = applied(queue.name(), queue.type(), true);
            policy.ifPresent(applied -> policyQueues.get(applied).add(queue.name()));
            operator.ifPresent(applied -> policyQueues.get(applied).add(queue.name()));
            views.put(queue.name(), QueueView.of(queue, policy, operator));
        }
        for (Exchange exchange : exchanges.values()) {
            Optional<Policy> policy = applied(exchange.name(), null, false);
            policy.ifPresent(applied -> policyExchanges.get(applied).add(exchange.name()));
            exchangePolicies.put(exchange.name(), policy);
        }
    }

    static Layout of(Definitions definitions) {
        return new Layout(definitions);
    }

    Definitions definitions() {
        return definitions;
    }

    /** The queues, by name. */
    Map<String, QueueView> queues() {
        return views;
    }

    Optional<QueueView> queue(String name) {
        return Optional.ofNullable(views.get(name));
    }

    /** The exported exchanges, by name; not the default exchange nor the {@code amq.} ones. */
    Map<String, Exchange> exchanges() {
        return exchanges;
    }

    /**
     * The type an exchange routes by: its own, a delayed-message exchange's {@code x-delayed-type}, a built-in
     * exchange's; empty for an exchange that does not exist.
     */
    Optional<String> routingType(String exchange) {
        Exchange defined = exchanges.get(exchange);
        if (defined == null) {
            return Optional.ofNullable(BUILT_IN.get(exchange));
        }
        if (defined.type().equals(Routes.DELAYED_MESSAGE)) {
            return Optional.of(defined.arguments().path(Routes.DELAYED_TYPE).asText("direct"));
        }
        return Optional.of(defined.type());
    }

    List<Binding> bindingsFrom(String exchange) {
        return bySource.getOrDefault(exchange, List.of());
    }

    List<Binding> bindingsInto(String queue) {
        return intoQueue.getOrDefault(queue, List.of());
    }

    /** An exchange's alternate exchange, from its argument or else its policy. */
    Optional<String> alternateExchange(String exchange) {
        Exchange defined = exchanges.get(exchange);
        if (defined == null) {
            return Optional.empty();
        }
        JsonNode argument = defined.arguments().path("alternate-exchange");
        if (argument.isTextual()) {
            return Optional.of(argument.asText());
        }
        return exchangePolicies.getOrDefault(exchange, Optional.empty())
                .map(policy -> policy.definition().path("alternate-exchange"))
                .filter(JsonNode::isTextual)
                .map(JsonNode::asText);
    }

    /** The queues each policy and operator policy applies to, policies in the definitions' order. */
    Map<Policy, List<String>> policyQueues() {
        return policyQueues;
    }

    /** The exchanges each policy applies to. */
    Map<Policy, List<String>> policyExchanges() {
        return policyExchanges;
    }

    /** The policies whose pattern Java cannot read, which apply to nothing here. */
    List<Policy> unreadablePolicies() {
        return unreadable;
    }

    /** Whether a policy's pattern matches a name, whatever its priority and target. */
    boolean matches(Policy policy, String name) {
        Pattern pattern = patterns.get(policy);
        return pattern != null && pattern.matcher(name).find();
    }

    /**
     * The policy (or operator policy) that applies to an object: among those whose pattern matches its name and
     * that apply to its kind, the highest priority.
     *
     * @param queueType the queue's type, or null for an exchange
     */
    private Optional<Policy> applied(String name, @Nullable String queueType, boolean operator) {
        Policy best = null;
        for (Map.Entry<Policy, Pattern> entry : patterns.entrySet()) {
            Policy policy = entry.getKey();
            if (policy.operator() == operator && appliesTo(policy, queueType)
                    && entry.getValue().matcher(name).find()
                    && (best == null || PRECEDENCE.compare(policy, best) < 0)) {
                best = policy;
            }
        }
        return Optional.ofNullable(best);
    }

    private static boolean appliesTo(Policy policy, @Nullable String queueType) {
        if (queueType == null) {
            return policy.applyTo().equals("exchanges") || policy.applyTo().equals("all");
        }
        return switch (policy.applyTo()) {
            case "queues", "all" -> true;
            case "classic_queues" -> queueType.equals(QueueType.CLASSIC.id());
            case "quorum_queues" -> queueType.equals(QueueType.QUORUM.id());
            case "streams" -> queueType.equals(QueueArguments.STREAM);
            default -> false;
        };
    }

    /**
     * A setting of a queue and where the broker takes it from.
     *
     * @param value the setting
     * @param from where it comes from: {@code argument x-message-ttl}, {@code policy 'retry'}
     */
    record Setting<T>(T value, String from) {
        Setting {
            requireNonNull(value, "value");
            requireNonNull(from, "from");
        }
    }

    /**
     * A queue with the settings the broker applies to it.
     *
     * @param deliveryLimit a delivery limit set explicitly, if any (RabbitMQ 4's default of 20 is not one);
     *     negative means none
     */
    record QueueView(Queue queue, Optional<Policy> policy, Optional<Policy> operatorPolicy,
            Optional<Setting<String>> deadLetterExchange, Optional<Setting<String>> deadLetterRoutingKey,
            Optional<Setting<Long>> messageTtl, Optional<Setting<Long>> deliveryLimit) {

        static QueueView of(Queue queue, Optional<Policy> policy, Optional<Policy> operator) {
            return new QueueView(queue, policy, operator,
                    text(queue, policy, QueueSetting.DEAD_LETTER_EXCHANGE),
                    text(queue, policy, QueueSetting.DEAD_LETTER_ROUTING_KEY),
                    lowest(queue, policy, operator, QueueSetting.MESSAGE_TTL),
                    lowest(queue, policy, operator, QueueSetting.DELIVERY_LIMIT));
        }

        String name() {
            return queue.name();
        }

        String type() {
            return queue.type();
        }

        /** A setting that its argument sets if it has one, else its policy. */
        private static Optional<Setting<String>> text(Queue queue, Optional<Policy> policy, QueueSetting<String> key) {
            JsonNode argument = queue.arguments().path(key.argument());
            if (argument.isTextual()) {
                return Optional.of(new Setting<>(argument.asText(), "argument " + key.argument()));
            }
            return policy.filter(applied -> applied.definition().path(key.name()).isTextual())
                    .map(applied -> new Setting<>(applied.definition().path(key.name()).asText(), applied.describe()));
        }

        /** A number that its argument, its policy and its operator policy may each set: the lowest applies. */
        private static Optional<Setting<Long>> lowest(Queue queue, Optional<Policy> policy, Optional<Policy> operator,
                QueueSetting<Number> key) {
            Setting<Long> lowest = null;
            OptionalLong argument = number(queue.arguments(), key.argument());
            if (argument.isPresent() && argument.getAsLong() >= 0) {
                lowest = new Setting<>(argument.getAsLong(), "argument " + key.argument());
            }
            for (Optional<Policy> source : List.of(policy, operator)) {
                if (source.isEmpty()) {
                    continue;
                }
                OptionalLong value = number(source.get().definition(), key.name());
                // A negative value sets no limit, and leaves the others to apply.
                if (value.isPresent() && value.getAsLong() >= 0 && (lowest == null || value.getAsLong() < lowest.value())) {
                    lowest = new Setting<>(value.getAsLong(), source.get().describe());
                }
            }
            return Optional.ofNullable(lowest);
        }

        private static OptionalLong number(ObjectNode object, String key) {
            JsonNode value = object.path(key);
            if (value.isIntegralNumber()) {
                return OptionalLong.of(value.asLong());
            }
            if (value.isTextual() && value.asText().matches("-?\\d{1,18}")) {
                return OptionalLong.of(Long.parseLong(value.asText()));
            }
            return OptionalLong.empty();
        }
    }
}
