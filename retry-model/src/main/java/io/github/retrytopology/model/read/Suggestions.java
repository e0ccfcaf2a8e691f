package io.github.retrytopology.model.read;

import java.util.Collection;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;

/** Finds the known word a user most likely meant, for "did you mean" hints. */
public final class Suggestions {

    private Suggestions() {
    }

    /**
     * Returns the candidate closest to {@code typed}, if it is close enough to be a plausible typo: the same
     * word in other case, or within an edit distance of about a third of its length.
     */
    public static Optional<String> closest(String typed, Collection<String> candidates) {
        String lower = typed.toLowerCase(Locale.ROOT);
        return candidates.stream()
                .filter(candidate -> {
                    int allowed = Math.max(1, Math.min(3, candidate.length() / 3));
                    return distance(lower, candidate.toLowerCase(Locale.ROOT)) <= allowed;
                })
                .min(Comparator.comparingInt((String candidate) ->
                                distance(lower, candidate.toLowerCase(Locale.ROOT)))
                        .thenComparing(Comparator.naturalOrder()));
    }

    /** Returns {@code "; did you mean 'x'?"} for the closest candidate, or nothing. */
    public static String didYouMean(String typed, Collection<String> candidates) {
        return closest(typed, candidates).map(candidate -> "; did you mean '" + candidate + "'?").orElse("");
    }

    /** The Levenshtein distance, counting a swap of two neighbours as one edit. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
