package io.github.retrytopology.model;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * A topic binding key: words separated by dots, where {@code *} stands for exactly one word and {@code #}
 * for zero or more words. Matching follows RabbitMQ's topic exchange to the letter: words are split on
 * every dot, so {@code a..b} has an empty middle word and the empty routing key has no words at all.
 *
 * @param value the key as written, such as {@code album.*.deleted}
 */
public record BindingKey(String value) {

    /** RabbitMQ's limit for routing and binding keys, in UTF-8 bytes. */
    public static final int MAX_BYTES = 255;

    private static final String ONE_WORD = "*";
    private static final String ANY_WORDS = "#";

    public BindingKey {
        Optional<String> problem = problem(value);
        if (problem.isPresent()) {
            throw new IllegalArgumentException(problem.get());
        }
    }

    public static BindingKey of(String value) {
        return new BindingKey(value);
    }

    /**
     * Says what is wrong with a binding key, or nothing if RabbitMQ will accept it and treat it as written.
     * Beyond RabbitMQ's own limit of 255 bytes, this refuses what RabbitMQ would accept but not treat as
     * meant: empty keys and words, wildcards inside words ({@code photo*} matches only the literal word
     * {@code photo*}) and white space.
     */
    public static Optional<String> problem(String value) {
        if (value == null || value.isEmpty()) {
            return Optional.of("a binding key needs at least one word");
        }
        String quoted = "'" + value + "'";
        int bytes = value.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_BYTES) {
            return Optional.of(quoted + " is " + bytes + " bytes long; RabbitMQ allows at most " + MAX_BYTES);
        }
        if (value.codePoints().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
            return Optional.of(quoted + " contains white space or a control character");
        }
        for (String word : words(value)) {
            if (word.isEmpty()) {
                return Optional.of(quoted + " has an empty word; check for a leading, trailing or doubled dot");
            }
            if (!word.equals(ONE_WORD) && !word.equals(ANY_WORDS) && (word.contains("*") || word.contains("#"))) {
                return Optional.of(quoted + " has '" + word + "': '*' and '#' stand only for whole words, so "
                        + "RabbitMQ would match this word literally");
            }
        }
        return Optional.empty();
    }

    /** Returns whether this key has a {@code *} or {@code #} word. */
    public boolean hasWildcards() {
        return words(value).stream().anyMatch(word -> word.equals(ONE_WORD) || word.equals(ANY_WORDS));
    }

    /** Returns whether RabbitMQ's topic exchange routes a message with this routing key through this binding. */
    public boolean matches(String routingKey) {
        return new Matcher(words(value), words(routingKey), false).match(0, 0);
    }

    /**
     * Returns whether every routing key that {@code other} matches is matched by this key too, so that a
     * dispatcher trying this key first would never reach {@code other}.
     */
    public boolean covers(BindingKey other) {
        return new Matcher(words(value), words(other.value), true).match(0, 0);
    }

    @Override
    public String toString() {
        return value;
    }

    /** Splits a key into words as RabbitMQ does: the empty key has no words, every dot separates two. */
    static List<String> words(String key) {
        if (key.isEmpty()) {
            return List.of();
        }
        List<String> words = new ArrayList<>();
        int start = 0;
        for (int dot = key.indexOf('.'); dot >= 0; dot = key.indexOf('.', start)) {
            words.add(key.substring(start, dot));
            start = dot + 1;
        }
        words.add(key.substring(start));
        return Collections.unmodifiableList(words);
    }

    /**
     * Matches pattern words against subject words, remembering each answer so that keys full of {@code #}
     * stay linear in their length. When the subject is itself a pattern ({@code subjectIsPattern}), its
     * wildcards stand for every word or word sequence they could match, and the answer is whether the
     * pattern matches all of them.
     */
    private static final class Matcher {
        private final List<String> pattern;
        private final List<String> subject;
        private final boolean subjectIsPattern;
        private final Boolean[][] memo;

        Matcher(List<String> pattern, List<String> subject, boolean subjectIsPattern) {
            this.pattern = pattern;
            this.subject = subject;
            this.subjectIsPattern = subjectIsPattern;
            this.memo = new Boolean[pattern.size() + 1][subject.size() + 1];
        }

        boolean match(int p, int s) {
            Boolean known = memo[p][s];
            if (known == null) {
                known = compute(p, s);
                memo[p][s] = known;
            }
            return known;
        }

        private boolean compute(int p, int s) {
            if (p == pattern.size()) {
                return s == subject.size();
            }
            String word = pattern.get(p);
            if (word.equals(ANY_WORDS)) {
                return match(p + 1, s) || (s < subject.size() && match(p, s + 1));
            }
            if (s == subject.size()) {
                return false;
            }
            String other = subject.get(s);
            if (subjectIsPattern && other.equals(ANY_WORDS)) {
                // The subject's '#' may stand for no word, or for a first word this pattern word must take.
                return word.equals(ONE_WORD) && match(p, s + 1) && match(p + 1, s);
            }
            if (subjectIsPattern && other.equals(ONE_WORD)) {
                return word.equals(ONE_WORD) && match(p + 1, s + 1);
            }
            return (word.equals(ONE_WORD) || word.equals(other)) && match(p + 1, s + 1);
        }
    }
}
