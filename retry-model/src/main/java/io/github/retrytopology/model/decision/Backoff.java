package io.github.retrytopology.model.decision;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How long to wait before each retry. Either a list of delays or a growth rule; both expand to the delays
 * of the tiers, and the last tier repeats for every retry beyond them.
 */
public sealed interface Backoff permits Backoff.Delays, Backoff.Exponential {

    /** Returns a backoff with no delays, for a policy that never retries. */
    static Backoff none() {
        return new Delays(List.of());
    }

    /** Returns a backoff that waits the given delays, in order; the last repeats. */
    static Backoff delays(Duration... delays) {
        return new Delays(List.of(delays));
    }

    /** Returns a backoff that starts at {@code initial} and multiplies by {@code multiplier}, up to {@code max}. */
    static Backoff exponential(Duration initial, BigDecimal multiplier, Duration max) {
        return new Exponential(initial, multiplier, Optional.of(max));
    }

    /** Returns a backoff that starts at {@code initial} and multiplies by {@code multiplier} without bound. */
    static Backoff exponential(Duration initial, BigDecimal multiplier) {
        return new Exponential(initial, multiplier, Optional.empty());
    }

    /**
     * Returns the delay of each tier for a policy that retries {@code retries} times: never more than
     * {@code retries} delays, and fewer when the later retries would repeat the last delay anyway.
     */
    List<Duration> tiers(int retries);

    /**
     * The delays written out, one per tier.
     *
     * @param delays the delay before retry 1, 2, ...; the last one repeats
     */
    record Delays(List<Duration> delays) implements Backoff {

        public Delays {
            delays = List.copyOf(delays);
            delays.forEach(Backoff::requirePositive);
        }

        @Override
        public List<Duration> tiers(int retries) {
            return delays.subList(0, Math.min(Math.max(retries, 0), delays.size()));
        }
    }

    /**
     * Delays that grow: {@code initial}, then each the one before times {@code multiplier}, rounded to the
     * millisecond, until {@code max}.
     *
     * @param initial the delay before the first retry
     * @param multiplier how much each delay grows over the one before; at least 1
     * @param max the longest delay, which then repeats; none for unbounded growth
     */
    record Exponential(Duration initial, BigDecimal multiplier, Optional<Duration> max) implements Backoff {

        private static final BigDecimal LONGEST = BigDecimal.valueOf(Long.MAX_VALUE);

        public Exponential {
            requirePositive(initial);
            requireNonNull(multiplier, "multiplier");
            requireNonNull(max, "max");
            if (multiplier.compareTo(BigDecimal.ONE) < 0) {
                throw new IllegalArgumentException("a backoff multiplier below 1 would shrink the delays: " + multiplier);
            }
            max.ifPresent(longest -> {
                if (longest.compareTo(initial) < 0) {
                    throw new IllegalArgumentException("max " + Durations.format(longest)
                            + " is shorter than initial " + Durations.format(initial));
                }
            });
        }

        @Override
        public List<Duration> tiers(int retries) {
            // Past MAX_TIERS the policy is refused anyway; stopping there keeps a careless spec cheap.
            int wanted = Math.min(retries, RetryPolicy.MAX_TIERS + 1);
            List<Duration> tiers = new ArrayList<>();
            BigDecimal millis = BigDecimal.valueOf(initial.toMillis());
            BigDecimal ceiling = max.map(longest -> BigDecimal.valueOf(longest.toMillis())).orElse(null);
            boolean grows = multiplier.compareTo(BigDecimal.ONE) > 0;
            while (tiers.size() < wanted) {
                boolean capped = ceiling != null && millis.compareTo(ceiling) >= 0;
                BigDecimal delay = capped ? ceiling : millis;
                if (delay.compareTo(LONGEST) > 0) {
                    tiers.add(Duration.ofMillis(Long.MAX_VALUE));
                    break;
                }
                tiers.add(Duration.ofMillis(delay.setScale(0, RoundingMode.HALF_UP).longValueExact()));
                if (capped || !grows) {
                    break;
                }
                millis = millis.multiply(multiplier, MathContext.DECIMAL128);
            }
            return List.copyOf(tiers);
        }
    }

    private static void requirePositive(Duration delay) {
        requireNonNull(delay, "delay");
        if (delay.isNegative() || delay.isZero()) {
            throw new IllegalArgumentException("a delay must be positive, got " + delay);
        }
    }
}
