package io.github.retrytopology.model;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * One delay tier of a service: a wait queue whose messages expire after {@code delay} and go back to the
 * service's queue.
 *
 * @param number the tier's number, from 1
 * @param delay how long a message waits
 * @param queue the wait queue
 */
public record Tier(int number, Duration delay, String queue) {

    public Tier {
        if (number < 1) {
            throw new IllegalArgumentException("tiers are numbered from 1, got " + number);
        }
        requireNonNull(delay, "delay");
        requireNonNull(queue, "queue");
    }
}
