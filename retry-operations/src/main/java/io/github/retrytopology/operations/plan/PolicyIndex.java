package io.github.retrytopology.operations.plan;

import io.github.retrytopology.operations.plan.BrokerState.Policy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The policies of a virtual host, arranged so that finding those that apply to a queue does not try every
 * pattern against every queue: a pattern that matches one name only, such as ours ({@code ^orders\.retry\.1$}),
 * is looked up by that name; only the others are tried.
 *
 * <p>RabbitMQ matches patterns with Erlang's PCRE, anywhere in the name; Java's regular expressions agree on
 * the patterns people write. A pattern Java cannot read matches nothing here, and {@link #unreadable()} lists
 * it, so that a plan can say so.
 */
final class PolicyIndex {

    private static final Comparator<Policy> PRECEDENCE =
            Comparator.comparingInt(Policy::priority).reversed().thenComparing(Policy::name);

    private final Map<String, Policy> byName = new LinkedHashMap<>();
    private final Map<String, List<Policy>> byLiteral = new HashMap<>();
    private final Map<Policy, Pattern> patterned = new LinkedHashMap<>();
    private final List<Policy> unreadable = new ArrayList<>();

    PolicyIndex(Collection<Policy> policies) {
        for (Policy policy : policies) {
            byName.put(policy.name(), policy);
            Optional<String> literal = literal(policy.pattern());
            if (literal.isPresent()) {
                byLiteral.computeIfAbsent(literal.get(), name -> new ArrayList<>()).add(policy);
                continue;
            }
            try {
                patterned.put(policy, Pattern.compile(policy.pattern()));
            } catch (PatternSyntaxException e) {
                unreadable.add(policy);
            }
        }
    }

    Collection<Policy> all() {
        return byName.values();
    }

    Optional<Policy> named(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    List<Policy> unreadable() {
        return List.copyOf(unreadable);
    }

    /** The policies that would apply to a queue of this name and type, the one RabbitMQ applies first. */
    List<Policy> matching(String queue, String type) {
        List<Policy> matching = new ArrayList<>();
        for (Policy policy : byLiteral.getOrDefault(queue, List.of())) {
            if (policy.appliesToType(type)) {
                matching.add(policy);
            }
        }
        patterned.forEach((policy, pattern) -> {
            if (policy.appliesToType(type) && pattern.matcher(queue).find()) {
                matching.add(policy);
            }
        });
        matching.sort(PRECEDENCE);
        return matching;
    }

    /**
     * The one name a pattern matches, if it is anchored at both ends and holds nothing but letters, digits and
     * escaped punctuation; empty for any other pattern.
     */
    static Optional<String> literal(String pattern) {
        if (pattern.length() < 2 || pattern.charAt(0) != '^' || pattern.charAt(pattern.length() - 1) != '$') {
            return Optional.empty();
        }
        StringBuilder name = new StringBuilder();
        int end = pattern.length() - 1;
        for (int i = 1; i < end; i++) {
            char c = pattern.charAt(i);
            if (c == '\\') {
                if (i + 1 >= end) {
                    return Optional.empty();
                }
                char escaped = pattern.charAt(++i);
                if (escaped >= 128 || Character.isLetterOrDigit(escaped)) {
                    return Optional.empty(); // \d, \w and the like are classes, not letters
                }
                name.append(escaped);
            } else if (c >= 128 || Character.isLetterOrDigit(c)) {
                name.append(c);
            } else {
                return Optional.empty();
            }
        }
        return Optional.of(name.toString());
    }
}
