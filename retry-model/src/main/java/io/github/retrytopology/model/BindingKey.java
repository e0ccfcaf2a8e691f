package io.github.retrytopology.model;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A topic binding key: words separated by dots, where {@code *} stands for exactly one word and {@code #}
 * for zero or more words. Matching follows RabbitMQ's topic exchange to the letter: words are split on
 * every dot, so {@code a..b} has an empty middle word and the empty routing key has no words at all; and
 * {@code #.#} means what {@code #} means.
 *
 * <p>A key is compiled once, when it is made, into the states of a small automaton that holds one bit per
 * word. Matching a routing key then reads it once, word by word, whatever the pattern: its time is linear
 * in the routing key's length and it allocates nothing, so no pattern, however full of wildcards, can make
 * the routing of one delivery slow.
 */
public final class BindingKey {

    /** RabbitMQ's limit for routing and binding keys, in UTF-8 bytes. */
    public static final int MAX_BYTES = 255;
    /**
     * RabbitMQ's limit on the {@code #} words of a topic binding key, from 4.3 (each one multiplies the work of
     * matching a routing key); earlier versions take any number, and treat {@code #.#} as {@code #}.
     */
    public static final int MAX_ANY_WORDS = 2;

    /** The most words a key within {@link #MAX_BYTES} can have, none of them empty: one bit each, in two longs. */
    private static final int MAX_WORDS = 128;

    private static final String ONE_WORD = "*";
    private static final String ANY_WORDS = "#";
    private static final byte LITERAL = 0;
    private static final byte ONE = 1;
    private static final byte ANY = 2;

    private final String value;
    private final boolean wildcards;
    /** The words, with every run of {@code #} read as one. */
    private final String[] words;
    private final byte[] kinds;
    /**
     * The words as bits: word {@code p} of {@code n} is bit {@code n - 1 - p}, low long first, so that moving on
     * to the next word shifts right, and a chain from the last word to the first runs like a carry.
     */
    private final long oneLow;
    private final long oneHigh;
    private final long anyLow;
    private final long anyHigh;
    private final long allLow;
    private final long allHigh;
    /** The literal words, in an open-addressing table keyed by hash, each with the bits of its positions. */
    private final @Nullable String[] literals;
    private final int[] literalHashes;
    private final long[] literalLow;
    private final long[] literalHigh;
    private final boolean hasLiterals;

    private BindingKey(String value) {
        Optional<String> problem = problem(value);
        if (problem.isPresent()) {
            throw new IllegalArgumentException(problem.get());
        }
        this.value = value;
        List<String> collapsed = new ArrayList<>();
        for (String word : value.split("\\.", -1)) {
            boolean repeatedHash = word.equals(ANY_WORDS) && !collapsed.isEmpty()
                    && collapsed.get(collapsed.size() - 1).equals(ANY_WORDS);
            if (!repeatedHash) {
                collapsed.add(word);
            }
        }
        int size = collapsed.size();
        words = collapsed.toArray(String[]::new);
        kinds = new byte[size];
        long[] one = new long[2];
        long[] any = new long[2];
        long[] all = new long[2];
        Map<String, long[]> positions = new LinkedHashMap<>();
        for (int p = 0; p < size; p++) {
            String word = words[p];
            kinds[p] = word.equals(ONE_WORD) ? ONE : word.equals(ANY_WORDS) ? ANY : LITERAL;
            long[] target = switch (kinds[p]) {
                case ONE -> one;
                case ANY -> any;
                default -> positions.computeIfAbsent(word, absent -> new long[2]);
            };
            setBit(target, size - 1 - p);
            setBit(all, size - 1 - p);
        }
        wildcards = one[0] != 0 || one[1] != 0 || any[0] != 0 || any[1] != 0;
        oneLow = one[0];
        oneHigh = one[1];
        anyLow = any[0];
        anyHigh = any[1];
        allLow = all[0];
        allHigh = all[1];
        hasLiterals = !positions.isEmpty();
        int capacity = Integer.highestOneBit(Math.max(1, positions.size()) * 2) * 2;
        literals = new String[capacity];
        literalHashes = new int[capacity];
        literalLow = new long[capacity];
        literalHigh = new long[capacity];
        positions.forEach((word, bits) -> {
            int hash = word.hashCode();
            int slot = slot(hash);
            while (literals[slot] != null) {
                slot = (slot + 1) & (capacity - 1);
            }
            literals[slot] = word;
            literalHashes[slot] = hash;
            literalLow[slot] = bits[0];
            literalHigh[slot] = bits[1];
        });
    }

    /**
     * Makes a binding key.
     *
     * @throws IllegalArgumentException if {@link #problem} finds one
     */
    public static BindingKey of(String value) {
        return new BindingKey(value);
    }

    /**
     * Says what is wrong with a binding key, or nothing if RabbitMQ will accept it and treat it as written.
     * Beyond RabbitMQ's own limit of 255 bytes, this refuses what RabbitMQ would accept but not treat as
     * meant: empty keys and words, wildcards inside words ({@code photo*} matches only the literal word
     * {@code photo*}) and white space.
     */
    public static Optional<String> problem(@Nullable String value) {
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
        for (String word : value.split("\\.", -1)) {
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

    /** How many {@code #} words a key has as written, which RabbitMQ counts against {@link #MAX_ANY_WORDS}. */
    public static int anyWords(String value) {
        int count = 0;
        for (String word : value.split("\\.", -1)) {
            if (word.equals(ANY_WORDS)) {
                count++;
            }
        }
        return count;
    }

    /** The key as written, such as {@code album.*.deleted}. */
    public String value() {
        return value;
    }

    /** Returns whether this key has a {@code *} or {@code #} word. */
    public boolean hasWildcards() {
        return wildcards;
    }

    /**
     * Returns whether RabbitMQ's topic exchange routes a message with this routing key through this binding.
     * Linear in the routing key's length, and allocation-free.
     */
    public boolean matches(String routingKey) {
        if (!wildcards) {
            return value.equals(routingKey);
        }
        int last = words.length - 1;
        // The automaton's states: the word that the routing key's next word must match, and whether every
        // word of this key has been matched. It starts before word 0; a '#' may match no word at all.
        long stateLow = last < 64 ? 1L << last : 0;
        long stateHigh = last < 64 ? 0 : 1L << (last - 64);
        long skipLow = stateLow & anyLow;
        long skipHigh = stateHigh & anyHigh;
        boolean done = (skipLow & 1) != 0;
        stateLow |= (skipLow >>> 1) | (skipHigh << 63);
        stateHigh |= skipHigh >>> 1;
        if (routingKey.isEmpty()) {
            return done;
        }
        int start = 0;
        while (true) {
            int dot = routingKey.indexOf('.', start);
            int end = dot < 0 ? routingKey.length() : dot;
            int slot = literalSlot(routingKey, start, end);
            long takeLow = oneLow | (slot < 0 ? 0 : literalLow[slot]);
            long takeHigh = oneHigh | (slot < 0 ? 0 : literalHigh[slot]);
            long advanceLow = stateLow & takeLow;
            long advanceHigh = stateHigh & takeHigh;
            long stayLow = stateLow & anyLow;
            long stayHigh = stateHigh & anyHigh;
            done = (advanceLow & 1) != 0;
            stateLow = stayLow | (advanceLow >>> 1) | (advanceHigh << 63);
            stateHigh = stayHigh | (advanceHigh >>> 1);
            skipLow = stateLow & anyLow;
            skipHigh = stateHigh & anyHigh;
            done |= (skipLow & 1) != 0;
            stateLow |= (skipLow >>> 1) | (skipHigh << 63);
            stateHigh |= skipHigh >>> 1;
            if (dot < 0) {
                return done;
            }
            if (stateLow == 0 && stateHigh == 0) {
                return false;
            }
            start = dot + 1;
        }
    }

    /**
     * Returns whether every routing key that {@code other} matches is matched by this key too, so that a
     * dispatcher trying this key first would never reach {@code other}. Linear in the length of
     * {@code other}, whatever the wildcards of either.
     *
     * <p>The answer is exact when {@code other} has no {@code #}. When it has, a yes is always right, but a key
     * covered only because this key's {@code #} takes different words for different routing keys, such as
     * {@code *.#.*} after {@code #.*.*}, is not noticed: each {@code #} here is tried as taking all of the
     * other's next word or pattern, or none of it.
     */
    public boolean covers(BindingKey other) {
        if (!other.wildcards) {
            return matches(other.value);
        }
        if (!wildcards) {
            return false;
        }
        // Column by column, from the end of the other key: bit p says whether this key's words from p on
        // match every sequence that the other key's words from the column on match; 'end' is the same for
        // this key exhausted, which covers only the end of the other key.
        long coveredLow = anyLow & 1;
        long coveredHigh = 0;
        boolean end = true;
        for (int s = other.words.length - 1; s >= 0; s--) {
            if (other.kinds[s] == ANY) {
                // The other key's '#' is no word, or a first word that a '*' here must take with the '#' still
                // to match: along this key, a '#' generates coverage and a covered '*' passes it on, which is
                // how a carry runs through a sum.
                long generateLow = anyLow & coveredLow;
                long generateHigh = anyHigh & coveredHigh;
                long passLow = anyLow | (oneLow & coveredLow);
                long passHigh = anyHigh | (oneHigh & coveredHigh);
                long sumLow = passLow + generateLow;
                long sumHigh = passHigh + generateHigh + (Long.compareUnsigned(sumLow, passLow) < 0 ? 1 : 0);
                long carryLow = sumLow ^ passLow ^ generateLow;
                long carryHigh = sumHigh ^ passHigh ^ generateHigh;
                coveredLow = (generateLow | (passLow & carryLow)) & allLow;
                coveredHigh = (generateHigh | (passHigh & carryHigh)) & allHigh;
            } else {
                int slot = other.kinds[s] == LITERAL ? literalSlot(other.words[s], 0, other.words[s].length()) : -1;
                long takeLow = oneLow | (slot < 0 ? 0 : literalLow[slot]);
                long takeHigh = oneHigh | (slot < 0 ? 0 : literalHigh[slot]);
                long wordLow = takeLow & ((coveredLow << 1) | (end ? 1 : 0));
                long wordHigh = takeHigh & ((coveredHigh << 1) | (coveredLow >>> 63));
                long anyWordLow = anyLow & ((wordLow << 1) | coveredLow);
                long anyWordHigh = anyHigh & ((wordHigh << 1) | (wordLow >>> 63) | coveredHigh);
                coveredLow = (wordLow | anyWordLow) & allLow;
                coveredHigh = (wordHigh | anyWordHigh) & allHigh;
            }
            end = false;
            if (coveredLow == 0 && coveredHigh == 0) {
                return false;
            }
        }
        int first = words.length - 1;
        return first < 64 ? (coveredLow >>> first & 1) != 0 : (coveredHigh >>> (first - 64) & 1) != 0;
    }

    /** The table slot of the literal word {@code text[start, end)}, or -1 if this key has no such word. */
    private int literalSlot(String text, int start, int end) {
        if (!hasLiterals) {
            return -1;
        }
        int hash = 0;
        for (int i = start; i < end; i++) {
            hash = 31 * hash + text.charAt(i);
        }
        int length = end - start;
        for (int slot = slot(hash); literals[slot] != null; slot = (slot + 1) & (literals.length - 1)) {
            String literal = literals[slot];
            if (literalHashes[slot] == hash && literal.length() == length
                    && text.regionMatches(start, literal, 0, length)) {
                return slot;
            }
        }
        return -1;
    }

    private int slot(int hash) {
        return (hash ^ (hash >>> 16)) & (literals.length - 1);
    }

    private static void setBit(long[] bits, int bit) {
        if (bit >= MAX_WORDS) {
            throw new IllegalStateException("a key of at most " + MAX_BYTES + " bytes has at most " + MAX_WORDS
                    + " words");
        }
        bits[bit >>> 6] |= 1L << (bit & 63);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof BindingKey key && key.value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return value;
    }
}
