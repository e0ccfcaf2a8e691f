package io.github.retrytopology.operations.adopt;

import io.github.retrytopology.model.topology.Exchange;
import io.github.retrytopology.operations.adopt.Definitions.Binding;
import io.github.retrytopology.operations.adopt.Layout.QueueView;
import io.github.retrytopology.operations.adopt.Layout.Setting;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where a message goes, following the bindings of a virtual host as its broker routes: by each exchange's type and
 * binding keys, through exchange-to-exchange bindings and alternate exchanges. Names play no part.
 *
 * <p>A message's routing key is known here as a set: one key, or "one that a binding took", such as every key a
 * queue's bindings match, which is what a message dead-lettered with its own routing key still has.
 */
final class Routes {

    /** The type of the delayed-message plugin's exchange. */
    static final String DELAYED_MESSAGE = Exchange.DELAYED_MESSAGE;
    /** The argument of the plugin's exchange that names the type it routes by. */
    static final String DELAYED_TYPE = Exchange.DELAYED_TYPE;

    private final Layout layout;
    /** The routing keys of each queue's messages, as its bindings and the queues dead-lettering into it let them be. */
    private final Map<String, Set<KeyPattern>> keys = new HashMap<>();
    /** Each binding's key as its exchange reads it, made once. */
    private final Map<Binding, KeyPattern> bound = new IdentityHashMap<>();

    Routes(Layout layout) {
        this.layout = layout;
        for (QueueView queue : layout.queues().values()) {
            keys.put(queue.name(), bindingKeys(queue.name()));
        }
    }

    /**
     * Adds to each queue's keys those of the messages dead-lettered into it: the dead-letter routing key, or the
     * keys of the queue they came from. Called once every dead-letter route is known, before they are worked out
     * again with these keys.
     *
     * @return the queues whose keys grew
     */
    Set<String> addDeadLettered(Map<String, DeadLetter> deadLetters) {
        Map<String, Set<KeyPattern>> added = new HashMap<>();
        for (DeadLetter deadLetter : deadLetters.values()) {
            Set<KeyPattern> carried = deadLetter.routingKey().isPresent()
                    ? Set.of(KeyPattern.literal(deadLetter.routingKey().get().value()))
                    : keys.get(deadLetter.queue().name());
            for (String target : deadLetter.reach().queues()) {
                added.computeIfAbsent(target, name -> new LinkedHashSet<>()).addAll(carried);
            }
        }
        Set<String> grown = new HashSet<>();
        added.forEach((queue, carried) -> {
            Set<KeyPattern> own = layout.bindingsInto(queue).isEmpty() ? new LinkedHashSet<>()
                    : new LinkedHashSet<>(keys.get(queue));
            own.addAll(carried);
            if (!own.equals(keys.get(queue))) {
                grown.add(queue);
                keys.put(queue, own);
            }
        });
        return grown;
    }

    /** The routing keys a queue's messages may have. */
    Set<KeyPattern> keysOf(String queue) {
        return keys.getOrDefault(queue, Set.of(KeyPattern.ANY));
    }

    /**
     * The keys of the messages a queue's bindings take; for a queue without any, its own name, with which a
     * publisher reaches it through the default exchange.
     */
    private Set<KeyPattern> bindingKeys(String queue) {
        List<Binding> bindings = layout.bindingsInto(queue);
        if (bindings.isEmpty()) {
            return Set.of(KeyPattern.literal(queue));
        }
        Set<KeyPattern> patterns = new LinkedHashSet<>();
        for (Binding binding : bindings) {
            String type = layout.routingType(binding.source()).orElse("");
            patterns.add(switch (type) {
                case "direct" -> KeyPattern.literal(binding.routingKey());
                case "topic" -> KeyPattern.topic(binding.routingKey());
                default -> KeyPattern.ANY;
            });
        }
        return patterns;
    }

    /** Where a queue dead-letters, worked out from its settings and the keys of its messages. */
    DeadLetter deadLetter(QueueView queue) {
        Setting<String> exchange = queue.deadLetterExchange().orElseThrow();
        Set<KeyPattern> sent = queue.deadLetterRoutingKey()
                .map(key -> Set.of(KeyPattern.literal(key.value())))
                .orElse(keysOf(queue.name()));
        return new DeadLetter(queue, exchange, queue.deadLetterRoutingKey(), route(exchange.value(), sent));
    }

    /** Where a message with one of these routing keys goes when it is sent to this exchange. */
    Reach route(String exchange, Set<KeyPattern> sent) {
        Walk walk = new Walk();
        walk.visit(exchange, sent);
        return new Reach(walk.queues, walk.doubts, walk.exchanges);
    }

    /** One routing: what it reaches and what makes it uncertain. */
    private final class Walk {
        private final Set<String> queues = new TreeSet<>();
        private final List<String> doubts = new ArrayList<>();
        private final List<String> exchanges = new ArrayList<>();
        private final Set<String> seen = new HashSet<>();

        void visit(String exchange, Set<KeyPattern> sent) {
            if (!seen.add(exchange)) {
                return; // RabbitMQ delivers a message to a queue once, however many ways lead there
            }
            exchanges.add(exchange);
            String type = layout.routingType(exchange).orElse(null);
            if (type == null) {
                doubts.add("exchange '" + exchange + "' does not exist, and the broker drops what is sent there");
                return;
            }
            if (exchange.isEmpty()) {
                toQueueNamed(sent);
                return;
            }
            if (type.equals("headers")) {
                doubts.add("exchange '" + exchange + "' is a headers exchange, which routes by the message's headers, "
                        + "and the broker does not hold those");
            } else if (!type.equals("direct") && !type.equals("topic") && !type.equals("fanout")) {
                doubts.add("exchange '" + exchange + "' is of type " + type + ", which routes by what the broker does "
                        + "not hold (such as a hash of the message)");
            }
            boolean matched = false;
            for (Binding binding : layout.bindingsFrom(exchange)) {
                Set<KeyPattern> passing = passing(type, binding, sent);
                if (passing.isEmpty()) {
                    continue;
                }
                matched = true;
                if (binding.toQueue()) {
                    if (layout.queue(binding.destination()).isPresent()) {
                        queues.add(binding.destination());
                    }
                } else {
                    visit(binding.destination(), passing);
                }
            }
            if (!matched) {
                layout.alternateExchange(exchange).ifPresent(alternate -> visit(alternate, sent));
            }
        }

        /** The default exchange delivers to the queue its routing key names. */
        private void toQueueNamed(Set<KeyPattern> sent) {
            for (KeyPattern key : sent) {
                if (!key.single()) {
                    doubts.add("the default exchange, with the message's own routing key (" + key + "), would deliver "
                            + "to any queue that key names");
                } else if (layout.queue(key.text()).isPresent()) {
                    queues.add(key.text());
                }
            }
        }

        /** The keys of those sent that a binding takes, as they are past it. */
        private Set<KeyPattern> passing(String type, Binding binding, Set<KeyPattern> sent) {
            if (!type.equals("direct") && !type.equals("topic")) {
                return sent;
            }
            KeyPattern bound = Routes.this.bound.computeIfAbsent(binding, key -> type.equals("direct")
                    ? KeyPattern.literal(key.routingKey()) : KeyPattern.topic(key.routingKey()));
            Set<KeyPattern> passing = new LinkedHashSet<>();
            for (KeyPattern key : sent) {
                if (key.overlaps(bound)) {
                    // Past a direct binding the key is the binding's; past a topic one, the narrower of the two.
                    passing.add(type.equals("direct") || key.wildcards() && !key.single() && bound.single() ? bound : key);
                }
            }
            return passing;
        }
    }

    /**
     * Where a message goes.
     *
     * @param queues the queues it may reach
     * @param doubts why that is not certain, in sentences; empty when it is
     * @param exchanges the exchanges it passes, the first one first
     */
    record Reach(Set<String> queues, List<String> doubts, List<String> exchanges) {
        Reach {
            queues = Set.copyOf(new TreeSet<>(queues));
            doubts = List.copyOf(doubts);
            exchanges = List.copyOf(exchanges);
        }

        /** The one queue it certainly reaches, if that is all. */
        Optional<String> single() {
            return doubts.isEmpty() && queues.size() == 1 ? Optional.of(queues.iterator().next())
                    : Optional.empty();
        }

        List<String> sortedQueues() {
            return new ArrayList<>(new TreeSet<>(queues));
        }
    }

    /**
     * Where a queue's dead-lettered messages go.
     *
     * @param exchange its dead-letter exchange, {@code ""} for the default one
     * @param routingKey its dead-letter routing key; empty to keep the message's own
     */
    record DeadLetter(QueueView queue, Setting<String> exchange, Optional<Setting<String>> routingKey, Reach reach) {

        /** How it dead-letters, in words: {@code through exchange 'master' with the message's own routing key}. */
        String describe() {
            String key = routingKey.map(setting -> "routing key '" + setting.value() + "'")
                    .orElse("the message's own routing key");
            return exchange.value().isEmpty() ? "through the default exchange with " + key
                    : "through exchange '" + exchange.value() + "' with " + key;
        }
    }
}
