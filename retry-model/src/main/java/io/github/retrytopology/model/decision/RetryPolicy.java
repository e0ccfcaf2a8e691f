package io.github.retrytopology.model.decision;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.Durations;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The retry decision of one service, the single copy that the generator documents and the runtime applies
 * to every failed delivery.
 *
 * @param maxAttempts deliveries in all, the first included; 1 means never retry
 * @param backoff the delays before retries
 * @param nonRetryable binary names of exception classes that go straight to the parking lot
 */
public record RetryPolicy(int maxAttempts, Backoff backoff, List<String> nonRetryable) {

    /** More wait queues than this per service is a mistake, not a design. */
    public static final int MAX_TIERS = 50;

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts counts every delivery and is at least 1, got " + maxAttempts);
        }
        requireNonNull(backoff, "backoff");
        nonRetryable = List.copyOf(nonRetryable);
        List<Duration> tiers = backoff.tiers(maxAttempts - 1);
        if (maxAttempts > 1 && tiers.isEmpty()) {
            throw new IllegalArgumentException("a policy that retries needs at least one delay");
        }
        if (tiers.size() > MAX_TIERS) {
            throw new IllegalArgumentException(tiers.size() + " tiers is more than " + MAX_TIERS);
        }
        for (Duration delay : tiers) {
            if (delay.compareTo(Durations.MAX_TTL) > 0) {
                throw new IllegalArgumentException("delay " + Durations.format(delay) + " is above RabbitMQ's TTL limit");
            }
        }
    }

    /** Returns the delay of each tier, in order: tier 1 first. The last tier repeats for later retries. */
    public List<Duration> tiers() {
        return backoff.tiers(maxAttempts - 1);
    }

    /**
     * Decides what happens after a failed delivery: park if the failure is listed in {@code nonRetryable}
     * (its class, a superclass, an interface it implements, or the same of any cause), or if this was the
     * last attempt; otherwise retry through the tier for this retry.
     *
     * @param failedAttempt the delivery that just failed, counted from 1
     * @param failure what the handler threw
     */
    public Decision decide(int failedAttempt, Throwable failure) {
        requireNonNull(failure, "failure");
        Optional<String> listed = nonRetryableType(failure);
        if (listed.isPresent()) {
            return new Decision.Park(ParkReason.NON_RETRYABLE,
                    failure.getClass().getName() + " is non-retryable (listed: " + listed.get() + ")");
        }
        return decideByAttempt(failedAttempt);
    }

    /**
     * Decides by the attempt alone, whatever the failure: park after the last attempt, retry otherwise. This
     * is the decision for a handler that asks for a retry explicitly.
     *
     * @param failedAttempt the delivery that just failed, counted from 1
     */
    public Decision decideByAttempt(int failedAttempt) {
        if (failedAttempt < 1) {
            throw new IllegalArgumentException("attempts are counted from 1, got " + failedAttempt);
        }
        if (failedAttempt >= maxAttempts) {
            return new Decision.Park(ParkReason.ATTEMPTS_EXHAUSTED,
                    "attempt " + failedAttempt + " of " + maxAttempts + " failed");
        }
        List<Duration> tiers = tiers();
        int tier = Math.min(failedAttempt, tiers.size());
        return new Decision.Retry(tier, tiers.get(tier - 1));
    }

    /** Returns the listed name that makes this failure non-retryable, if any. */
    public Optional<String> nonRetryableType(Throwable failure) {
        if (nonRetryable.isEmpty()) {
            return Optional.empty();
        }
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable cause = failure; cause != null && seen.add(cause); cause = cause.getCause()) {
            Optional<String> listed = listedSupertype(cause.getClass());
            if (listed.isPresent()) {
                return listed;
            }
        }
        return Optional.empty();
    }

    private Optional<String> listedSupertype(Class<?> type) {
        Deque<Class<?>> pending = new ArrayDeque<>(List.of(type));
        while (!pending.isEmpty()) {
            Class<?> next = pending.removeFirst();
            if (nonRetryable.contains(next.getName())) {
                return Optional.of(next.getName());
            }
            if (next.getSuperclass() != null) {
                pending.addLast(next.getSuperclass());
            }
            pending.addAll(List.of(next.getInterfaces()));
        }
        return Optional.empty();
    }
}
