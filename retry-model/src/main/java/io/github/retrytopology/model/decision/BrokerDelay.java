package io.github.retrytopology.model.decision;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The delay of RabbitMQ's delayed retry: before retry {@code n} the broker waits {@code min × n}, at most
 * {@code max}, with no jitter ({@code n} being the message's failed deliveries so far, {@code x-delivery-count}).
 * Only delays of that shape can be expressed, one pair per queue: {@code [1s, 2s, 3s]} is min 1s and max 3s, a
 * single {@code [5s]} is min and max 5s, and {@code [10s, 1m, 10m]} has no such pair.
 *
 * @param min the delay before the first retry, and the step each later retry adds
 * @param max the longest delay, which then repeats
 */
public record BrokerDelay(Duration min, Duration max) {

    /** The most delays {@link #describe} writes out before it elides the middle. */
    private static final int WRITTEN_OUT = 8;

    public BrokerDelay {
        requireNonNull(min, "min");
        requireNonNull(max, "max");
        if (min.isNegative() || min.isZero() || max.compareTo(min) < 0) {
            throw new IllegalArgumentException("a broker delay needs 0 < min <= max, got min " + Durations.format(min)
                    + " and max " + Durations.format(max));
        }
    }

    /**
     * The broker's delay for exactly these retries, if it has one.
     *
     * @param delays the delays before retry 1, 2, ..., the last repeating, as a backoff expands them
     * @param retries how many retries there are
     */
    public static Optional<BrokerDelay> of(List<Duration> delays, int retries) {
        if (delays.isEmpty() || retries < 1) {
            return Optional.empty();
        }
        BrokerDelay candidate = nearest(delays, retries);
        // Past the given delays both sides stay at the last one once the broker's delay has reached it, so one
        // retry beyond them is the last that can differ.
        int checked = Math.min(retries, delays.size() + 1);
        for (int retry = 1; retry <= checked; retry++) {
            if (!candidate.before(retry).equals(delays.get(Math.min(retry, delays.size()) - 1))) {
                return Optional.empty();
            }
        }
        return Optional.of(candidate);
    }

    /**
     * The broker's delay nearest to these: the same first delay, growing by it to the longest delay given. It equals
     * them where they can be expressed at all.
     */
    public static BrokerDelay nearest(List<Duration> delays, int retries) {
        Duration min = delays.get(0);
        Duration max = delays.subList(0, Math.min(retries, delays.size())).stream().max(Duration::compareTo).orElse(min);
        return new BrokerDelay(min, max);
    }

    /** The delay before retry {@code retry}, counted from 1. */
    public Duration before(int retry) {
        if (retry < 1) {
            throw new IllegalArgumentException("retries are counted from 1, got " + retry);
        }
        long maxMillis = max.toMillis();
        long minMillis = min.toMillis();
        return Duration.ofMillis(retry >= maxMillis / minMillis + 1 ? maxMillis : Math.min(minMillis * retry, maxMillis));
    }

    /** Writes delays as {@code delays} lists them: {@code [10s, 1m, 10m]}. */
    public static String describe(List<Duration> delays) {
        return delays.stream().map(Durations::write).collect(Collectors.joining(", ", "[", "]"));
    }

    /** The delays before the first {@code retries} retries, as {@code delays} would list them: {@code [1s, 2s, 3s]}. */
    public String describe(int retries) {
        List<String> written = new ArrayList<>();
        Duration previous = null;
        int last = retries;
        for (int retry = 1; retry <= retries; retry++) {
            Duration delay = before(retry);
            if (delay.equals(previous)) {
                last = retry - 1;
                break;
            }
            previous = delay;
        }
        for (int retry = 1; retry <= last; retry++) {
            if (last > WRITTEN_OUT && retry == WRITTEN_OUT - 1) {
                written.add("...");
                retry = last;
            }
            written.add(Durations.write(before(retry)));
        }
        return "[" + String.join(", ", written) + "]";
    }
}
