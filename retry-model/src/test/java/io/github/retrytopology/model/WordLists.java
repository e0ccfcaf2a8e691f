package io.github.retrytopology.model;

import java.util.List;

/**
 * RabbitMQ's topic matching the plain way, as the model did before binding keys were compiled to bits: both keys
 * split into word lists, and a memo table per match. The reference the compiled matcher must agree with, and what
 * the benchmark measures it against.
 */
final class WordLists {

    private final List<String> pattern;
    private final List<String> subject;
    private final boolean subjectIsPattern;
    private final Boolean[][] memo;

    private WordLists(List<String> pattern, List<String> subject, boolean subjectIsPattern) {
        this.pattern = pattern;
        this.subject = subject;
        this.subjectIsPattern = subjectIsPattern;
        this.memo = new Boolean[pattern.size() + 1][subject.size() + 1];
    }

    /** Whether a binding key matches a routing key. */
    static boolean matches(String key, String routingKey) {
        return new WordLists(words(key), words(routingKey), false).match(0, 0);
    }

    /** Whether a binding key matches every routing key that another matches, as far as this table can tell. */
    static boolean covers(String key, String other) {
        return new WordLists(words(key), words(other), true).match(0, 0);
    }

    /** A key's words: none for the empty key, and one more than it has dots otherwise. */
    static List<String> words(String key) {
        return key.isEmpty() ? List.of() : List.of(key.split("\\.", -1));
    }

    private boolean match(int p, int s) {
        if (memo[p][s] == null) {
            memo[p][s] = compute(p, s);
        }
        return memo[p][s];
    }

    private boolean compute(int p, int s) {
        if (p == pattern.size()) {
            return s == subject.size();
        }
        String word = pattern.get(p);
        if (word.equals("#")) {
            return match(p + 1, s) || (s < subject.size() && match(p, s + 1));
        }
        if (s == subject.size()) {
            return false;
        }
        String other = subject.get(s);
        if (subjectIsPattern && other.equals("#")) {
            return word.equals("*") && match(p, s + 1) && match(p + 1, s);
        }
        if (subjectIsPattern && other.equals("*")) {
            return word.equals("*") && match(p + 1, s + 1);
        }
        return (word.equals("*") || word.equals(other)) && match(p + 1, s + 1);
    }
}
