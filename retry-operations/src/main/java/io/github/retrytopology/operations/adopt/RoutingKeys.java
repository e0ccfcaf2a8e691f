package io.github.retrytopology.operations.adopt;

import io.github.retrytopology.model.BindingKey;
import io.github.retrytopology.model.Names;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.operations.adopt.AdoptionRecord.Listed;
import io.github.retrytopology.operations.adopt.Definitions.Binding;
import io.github.retrytopology.operations.adopt.Draft.Key;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import javax.lang.model.SourceVersion;

/**
 * A service's routing keys, from the bindings of its queue to the exchange publishers use, as the spec takes them:
 * a topic exchange's keys as they are, a direct exchange's as the one key each matches, {@code #} for a fanout
 * exchange (every message reaches the queue). Keys are listed so that none comes after one that covers it, and a
 * handler is named wherever the spec could not derive one from the key.
 */
final class RoutingKeys {

    /** Every routing key. */
    static final String EVERY = "#";

    private final List<Key> keys;
    private final List<String> comments;
    private final List<Listed> problems;

    private RoutingKeys(List<Key> keys, List<String> comments, List<Listed> problems) {
        this.keys = List.copyOf(keys);
        this.comments = List.copyOf(comments);
        this.problems = List.copyOf(problems);
    }

    /**
     * The keys of a queue's bindings from these exchanges.
     *
     * @param queue the work queue
     * @param bindings its bindings from the exchange(s) publishers use; none when they reach it by name through
     *     the default exchange
     * @param types the routing type of each binding's source
     */
    static RoutingKeys of(String queue, List<Binding> bindings, java.util.function.Function<String, String> types) {
        List<String> comments = new ArrayList<>();
        List<Listed> problems = new ArrayList<>();
        Set<String> keys = new LinkedHashSet<>();
        if (bindings.isEmpty()) {
            comments.add("assumed: no exchange routes to '" + queue + "'; publishers send to it by name through the "
                    + "default exchange, which still reaches it. The spec needs a routing key: its name.");
            keys.add(queue);
        }
        for (Binding binding : bindings) {
            String type = types.apply(binding.source());
            String key = binding.routingKey();
            String from = "'" + binding.source() + "' binds '" + queue + "'";
            switch (type) {
                case "topic" -> keys.add(key);
                case "direct" -> {
                    if (key.contains("*") || key.contains("#")) {
                        problems.add(new Listed("binding", binding.source() + " -> " + queue + " (" + key + ")",
                                "a direct exchange matches '" + key + "' word for word, and a topic exchange would "
                                        + "read its '*' or '#' as a wildcard"));
                    } else {
                        keys.add(key);
                    }
                }
                case "fanout" -> {
                    comments.add("'" + binding.source() + "' is a fanout exchange: every message published there "
                            + "reaches '" + queue + "', whatever its routing key, so the key is '#'.");
                    keys.add(EVERY);
                }
                default -> {
                    problems.add(new Listed("binding", binding.source() + " -> " + queue + " (" + key + ")",
                            from + " through an exchange of type " + type + ", which routes by what a topic exchange "
                                    + "cannot; the draft binds every routing key ('#') instead"));
                    keys.add(EVERY);
                }
            }
        }
        List<String> valid = new ArrayList<>();
        for (String key : keys) {
            Optional<String> problem = BindingKey.problem(key);
            if (problem.isEmpty() && BindingKey.anyWords(key) > BindingKey.MAX_ANY_WORDS) {
                problem = Optional.of("'" + key + "' has more than " + BindingKey.MAX_ANY_WORDS
                        + " '#' words, which RabbitMQ 4.3 refuses");
            }
            if (problem.isPresent()) {
                problems.add(new Listed("binding", queue + " (" + key + ")", "the spec cannot take this routing key: "
                        + problem.get()));
            } else {
                valid.add(key);
            }
        }
        if (valid.size() > Service.MAX_ROUTING_KEYS) {
            problems.add(new Listed("queue", queue, "is bound with " + valid.size() + " routing keys; a service "
                    + "of the spec takes at most " + Service.MAX_ROUTING_KEYS));
        }
        return new RoutingKeys(handlers(narrowestFirst(valid)), comments, problems);
    }

    /**
     * The keys in order, moved so that none comes after a key that covers it: a binding covered by another is
     * harmless on the broker, but the spec dispatches to the first key that matches.
     */
    private static List<String> narrowestFirst(List<String> keys) {
        // Sorted first: brokers export bindings in no fixed order, and the same topology must give the same draft.
        List<String> left = new ArrayList<>(new TreeSet<>(keys));
        List<String> ordered = new ArrayList<>();
        while (!left.isEmpty()) {
            String next = left.get(0);
            for (String candidate : left) {
                BindingKey key = BindingKey.of(candidate);
                if (left.stream().noneMatch(other -> !other.equals(candidate) && key.covers(BindingKey.of(other)))) {
                    next = candidate;
                    break;
                }
            }
            ordered.add(next);
            left.remove(next);
        }
        return ordered;
    }

    private static List<Key> handlers(List<String> keys) {
        Set<String> used = new HashSet<>();
        List<Key> named = new ArrayList<>();
        for (String key : keys) {
            BindingKey bindingKey = BindingKey.of(key);
            Optional<String> derived = bindingKey.hasWildcards() ? Optional.empty() : Names.handlerMethod(bindingKey);
            if (derived.isPresent() && usable(derived.get()) && used.add(derived.get())) {
                named.add(new Key(key, Optional.empty()));
                continue;
            }
            String base = Names.handlerMethod(key.replace("*", "any").replace("#", "all")).orElse("route");
            if (!usable(base)) {
                base = SourceVersion.isIdentifier(base + "Message") ? base + "Message" : "route";
            }
            String handler = base;
            for (int suffix = 2; !used.add(handler); suffix++) {
                handler = base + suffix;
            }
            named.add(new Key(key, Optional.of(handler)));
        }
        return named;
    }

    private static boolean usable(String handler) {
        return SourceVersion.isIdentifier(handler) && !SourceVersion.isKeyword(handler)
                && !Names.RESERVED_HANDLER_NAMES.contains(handler)
                && handler.codePoints().noneMatch(Character::isIdentifierIgnorable);
    }

    List<Key> keys() {
        return keys;
    }

    /** What the draft says above the keys. */
    List<String> comments() {
        return comments;
    }

    /** The keys the spec cannot take, and bindings it cannot say. */
    List<Listed> problems() {
        return problems;
    }
}
