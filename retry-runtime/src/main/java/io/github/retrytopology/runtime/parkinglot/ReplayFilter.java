package io.github.retrytopology.runtime.parkinglot;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.BindingKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Which parked messages to replay. Every condition set must hold; {@link #all()} sets none.
 *
 * @param exception the class of the last failure, by binary name or by simple name
 * @param routingKey a topic pattern the original routing key must match
 * @param olderThan parked at least this long ago
 * @param newerThan parked less than this long ago
 */
public record ReplayFilter(Optional<String> exception, Optional<BindingKey> routingKey, Optional<Duration> olderThan,
        Optional<Duration> newerThan) {

    public ReplayFilter {
        requireNonNull(exception, "exception");
        requireNonNull(routingKey, "routingKey");
        requireNonNull(olderThan, "olderThan");
        requireNonNull(newerThan, "newerThan");
    }

    /** Every parked message. */
    public static ReplayFilter all() {
        return new ReplayFilter(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** Also requires the last failure to be of this class, by binary or simple name. */
    public ReplayFilter exception(String exception) {
        return new ReplayFilter(Optional.of(exception), routingKey, olderThan, newerThan);
    }

    /** Also requires the original routing key to match this topic pattern. */
    public ReplayFilter routingKey(String pattern) {
        return new ReplayFilter(exception, Optional.of(BindingKey.of(pattern)), olderThan, newerThan);
    }

    /** Also requires the message to have been parked at least this long ago. */
    public ReplayFilter olderThan(Duration age) {
        return new ReplayFilter(exception, routingKey, Optional.of(age), newerThan);
    }

    /** Also requires the message to have been parked less than this long ago. */
    public ReplayFilter newerThan(Duration age) {
        return new ReplayFilter(exception, routingKey, olderThan, Optional.of(age));
    }

    /** Returns whether a parked message meets every condition; one whose park time is unknown has no age. */
    public boolean matches(ParkedMessage message, Instant now) {
        if (exception.isPresent() && !message.exception().filter(this::sameClass).isPresent()) {
            return false;
        }
        if (routingKey.isPresent() && !message.routingKey().filter(key -> routingKey.get().matches(key)).isPresent()) {
            return false;
        }
        if (olderThan.isPresent() || newerThan.isPresent()) {
            Optional<Instant> parkedAt = message.parkedAt();
            if (parkedAt.isEmpty()) {
                return false;
            }
            Duration age = Duration.between(parkedAt.get(), now);
            return olderThan.map(min -> age.compareTo(min) >= 0).orElse(true)
                    && newerThan.map(max -> age.compareTo(max) < 0).orElse(true);
        }
        return true;
    }

    private boolean sameClass(String recorded) {
        String wanted = exception.orElseThrow();
        return recorded.equals(wanted) || recorded.endsWith("." + wanted) || recorded.endsWith("$" + wanted);
    }
}
