package io.github.retrytopology.runtime.internal;

import java.time.Instant;

/**
 * The text this project writes for a time: an ISO-8601 instant to the millisecond, such as
 * {@code 2026-11-22T17:40:54.276Z}. The text of the current second is kept and reused: formatting every failure's
 * time in full cost more than the rest of its headers.
 */
public final class Timestamps {

    /** A second since the epoch, and its text up to the fraction: {@code 2026-11-22T17:40:54.}. */
    private record Second(long epochSecond, String prefix) {
    }

    private static volatile Second last = second(0);

    private Timestamps() {
    }

    /** The text of this time, to the millisecond. */
    public static String format(Instant instant) {
        long epochSecond = instant.getEpochSecond();
        Second second = last;
        if (second.epochSecond != epochSecond) {
            second = second(epochSecond);
            last = second;
        }
        int millis = instant.getNano() / 1_000_000;
        return new StringBuilder(second.prefix.length() + 4).append(second.prefix)
                .append((char) ('0' + millis / 100)).append((char) ('0' + millis / 10 % 10))
                .append((char) ('0' + millis % 10)).append('Z').toString();
    }

    private static Second second(long epochSecond) {
        String whole = Instant.ofEpochSecond(epochSecond).toString(); // ends in "Z", without a fraction
        return new Second(epochSecond, whole.substring(0, whole.length() - 1) + ".");
    }
}
