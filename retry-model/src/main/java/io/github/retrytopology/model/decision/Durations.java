package io.github.retrytopology.model.decision;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads and writes the spec's durations: a whole number and a unit, such as {@code 500ms} or {@code 10m}. */
public final class Durations {

    /** RabbitMQ's largest message TTL: 2^32-1 milliseconds, about 49.7 days. */
    public static final Duration MAX_TTL = Duration.ofMillis(4_294_967_295L);

    /**
     * What a duration looks like, as a regular expression that Java and JavaScript read alike: digits and a unit.
     * Being positive is checked apart.
     */
    public static final String SYNTAX = "([0-9]+)(ms|s|m|h|d)";

    private static final Pattern DURATION = Pattern.compile(SYNTAX);
    private static final Pattern BARE_NUMBER = Pattern.compile("[+-]?\\d+(\\.\\d*)?");
    private static final Pattern DECIMAL = Pattern.compile("\\d*\\.\\d+(ms|s|m|h|d)");
    private static final Pattern COMPOUND = Pattern.compile("(\\d+(ms|s|m|h|d)){2,}");

    private Durations() {
    }

    /**
     * Parses a duration such as {@code 10s}.
     *
     * @throws IllegalArgumentException if the text is not a positive whole number followed by one of the
     *     units {@code ms}, {@code s}, {@code m}, {@code h}, {@code d}; the message says what was expected
     * @throws ArithmeticException if the duration is too long to be represented at all
     */
    public static Duration parse(String text) {
        Matcher matcher = DURATION.matcher(text);
        if (!matcher.matches()) {
            throw new IllegalArgumentException(whatIsWrong(text));
        }
        long amount;
        try {
            amount = Long.parseLong(matcher.group(1));
        } catch (NumberFormatException tooManyDigits) {
            throw new ArithmeticException("'" + text + "' is too long to be a duration");
        }
        if (amount == 0) {
            throw new IllegalArgumentException("'" + text + "' is not a delay; a duration must be positive");
        }
        return switch (matcher.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofDays(amount);
        };
    }

    private static String whatIsWrong(String text) {
        String quoted = "'" + text + "'";
        String trimmed = text.strip().toLowerCase(Locale.ROOT);
        if (BARE_NUMBER.matcher(trimmed).matches()) {
            return quoted + " has no unit, which makes it ambiguous; write it with one of ms, s, m, h, d, "
                    + "such as '" + trimmed.replace("+", "") + "s'";
        }
        if (trimmed.startsWith("-")) {
            return quoted + " is negative; a duration must be positive";
        }
        if (DECIMAL.matcher(trimmed).matches()) {
            return quoted + " is not a whole number; use a smaller unit, such as '1500ms' for 1.5s";
        }
        if (COMPOUND.matcher(trimmed).matches()) {
            return quoted + " combines units; write it in one unit, such as '90m' for 1h30m";
        }
        String normalized = trimmed.replaceAll("\\s+", "");
        if (!normalized.equals(text) && DURATION.matcher(normalized).matches()) {
            return quoted + " is not a duration; durations are written in lower case without spaces, such as '"
                    + normalized + "'";
        }
        return quoted + " is not a duration; expected a whole number and a unit (ms, s, m, h, d), such as '10s'";
    }

    /**
     * Formats a duration the way the spec writes it, in its largest exact units: {@code 10s}, {@code 1m30s},
     * {@code 2h}, {@code 1500ms} is {@code 1s500ms}.
     */
    public static String format(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("durations here are never negative: " + duration);
        }
        long millis = duration.toMillis();
        if (millis == 0) {
            return "0ms";
        }
        StringBuilder text = new StringBuilder();
        millis = append(text, millis, 86_400_000L, "d");
        millis = append(text, millis, 3_600_000L, "h");
        millis = append(text, millis, 60_000L, "m");
        millis = append(text, millis, 1_000L, "s");
        append(text, millis, 1L, "ms");
        return text.toString();
    }

    /**
     * Writes a duration as a spec may: in the largest single unit that holds it exactly, so that {@code 90s} stays
     * {@code 90s} and {@code 120s} is {@code 2m}.
     */
    public static String write(Duration duration) {
        long millis = duration.toMillis();
        if (millis <= 0) {
            throw new IllegalArgumentException("a spec's durations are positive: " + duration);
        }
        long[] units = {86_400_000L, 3_600_000L, 60_000L, 1_000L, 1L};
        String[] symbols = {"d", "h", "m", "s", "ms"};
        for (int unit = 0; ; unit++) {
            if (millis % units[unit] == 0) {
                return millis / units[unit] + symbols[unit];
            }
        }
    }

    private static long append(StringBuilder text, long millis, long unit, String symbol) {
        long amount = millis / unit;
        if (amount > 0) {
            text.append(amount).append(symbol);
        }
        return millis % unit;
    }
}
