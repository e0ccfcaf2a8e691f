package io.github.retrytopology.operations.adopt;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A set of routing keys, word by word as RabbitMQ splits them on dots: one routing key, or those that a topic
 * binding key matches ({@code *} one word, {@code #} any number). Two sets are compared by whether some routing key
 * is in both, which is how adopt follows a message whose key it knows only as "one that a binding took".
 *
 * <p>Unlike the model's {@code BindingKey}, it takes every key the broker holds, the empty key and empty words
 * included: the empty key has no word, so that {@code #} matches it and {@code *} does not, as in RabbitMQ.
 *
 * <p>Its words are split once, as a virtual host's routing compares each key with many.
 */
final class KeyPattern {

    /** Every routing key. */
    static final KeyPattern ANY = topic("#");

    private static final String ONE = "*";
    private static final String MANY = "#";

    private final String text;
    private final boolean wildcards;
    private final String[] words;

    /**
     * @param text the key as the broker holds it
     * @param wildcards whether {@code *} and {@code #} words are wildcards (a topic binding key) or words (a routing
     *     key, or a direct binding key)
     */
    private KeyPattern(String text, boolean wildcards) {
        this.text = requireNonNull(text, "text");
        this.wildcards = wildcards;
        this.words = words(text);
    }

    /** One routing key, or a direct binding key, which matches that key only. */
    static KeyPattern literal(String key) {
        return new KeyPattern(key, false);
    }

    /** The routing keys a topic binding key matches. */
    static KeyPattern topic(String bindingKey) {
        return new KeyPattern(bindingKey, true);
    }

    /** The key as the broker holds it. */
    String text() {
        return text;
    }

    /** Whether {@code *} and {@code #} words are wildcards here. */
    boolean wildcards() {
        return wildcards;
    }

    /** Whether this is one routing key rather than a set of them. */
    boolean single() {
        if (!wildcards) {
            return true;
        }
        for (String word : words) {
            if (word.equals(ONE) || word.equals(MANY)) {
                return false;
            }
        }
        return true;
    }

    /** Whether some routing key is in both sets. */
    boolean overlaps(KeyPattern other) {
        String[] a = words;
        String[] b = other.words;
        if (a.length > 0 && b.length > 0 && !sameWord(a[0], wildcards, b[0], other.wildcards)) {
            return false; // most keys of a virtual host differ in their first word
        }
        boolean[][] seen = new boolean[a.length + 1][b.length + 1];
        Deque<int[]> next = new ArrayDeque<>();
        next.add(new int[] {0, 0});
        seen[0][0] = true;
        while (!next.isEmpty()) {
            int[] at = next.poll();
            int i = at[0];
            int j = at[1];
            if (i == a.length && j == b.length) {
                return true;
            }
            boolean manyA = i < a.length && wildcards && a[i].equals(MANY);
            boolean manyB = j < b.length && other.wildcards && b[j].equals(MANY);
            // A '#' may stand for no word.
            if (manyA) {
                visit(seen, next, i + 1, j);
            }
            if (manyB) {
                visit(seen, next, i, j + 1);
            }
            // Both take one more word, if some word fits both; a '#' takes it and stays.
            if (i < a.length && j < b.length && sameWord(a[i], wildcards, b[j], other.wildcards)) {
                visit(seen, next, manyA ? i : i + 1, manyB ? j : j + 1);
            }
        }
        return false;
    }

    /** Whether this set holds this routing key. */
    boolean matches(String routingKey) {
        return overlaps(literal(routingKey));
    }

    private static boolean sameWord(String a, boolean aWild, String b, boolean bWild) {
        boolean anyA = aWild && (a.equals(ONE) || a.equals(MANY));
        boolean anyB = bWild && (b.equals(ONE) || b.equals(MANY));
        return anyA || anyB || a.equals(b);
    }

    private static void visit(boolean[][] seen, Deque<int[]> next, int i, int j) {
        if (!seen[i][j]) {
            seen[i][j] = true;
            next.add(new int[] {i, j});
        }
    }

    /** A key's words, split on its dots; the empty key has none. */
    private static String[] words(String key) {
        if (key.isEmpty()) {
            return new String[0];
        }
        List<String> words = new ArrayList<>();
        int start = 0;
        for (int dot = key.indexOf('.'); dot >= 0; dot = key.indexOf('.', start)) {
            words.add(key.substring(start, dot));
            start = dot + 1;
        }
        words.add(key.substring(start));
        return words.toArray(new String[0]);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof KeyPattern pattern && pattern.text.equals(text) && pattern.wildcards == wildcards;
    }

    @Override
    public int hashCode() {
        return text.hashCode() * 31 + (wildcards ? 1 : 0);
    }

    @Override
    public String toString() {
        return text;
    }
}
