package io.github.retrytopology.runtime.parkinglot;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.BindingKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;

/**
 * Which parked messages to replay. Every condition set must hold; {@link #all()} sets none.
 *
 * @param exception the class of the last failure, by binary name or by simple name
 * @param routingKey a topic pattern the original routing key must match
 * @param olderThan parked at least this long ago
 * @param newerThan parked less than this long ago
 * @param failure the {@linkplain Failure#key() key} of the failure group
 * @param ids the {@linkplain ParkedMessage#id() ids} of the messages; empty for any
 */
public record ReplayFilter(Optional<String> exception, Optional<BindingKey> routingKey, Optional<Duration> olderThan,
        Optional<Duration> newerThan, Optional<String> failure, Set<String> ids) {

    public ReplayFilter {
        requireNonNull(exception, "exception");
        requireNonNull(routingKey, "routingKey");
        requireNonNull(olderThan, "olderThan");
        requireNonNull(newerThan, "newerThan");
        requireNonNull(failure, "failure");
        ids = Set.copyOf(ids);
    }

    /** Every parked message. */
    public static ReplayFilter all() {
        return new ReplayFilter(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Set.of());
    }

    /** Also requires the last failure to be of this class, by binary or simple name. */
    public ReplayFilter exception(String exception) {
        return new ReplayFilter(Optional.of(exception), routingKey, olderThan, newerThan, failure, ids);
    }

    /** Also requires the original routing key to match this topic pattern. */
    public ReplayFilter routingKey(String pattern) {
        return new ReplayFilter(exception, Optional.of(BindingKey.of(pattern)), olderThan, newerThan, failure, ids);
    }

    /** Also requires the message to have been parked at least this long ago. */
    public ReplayFilter olderThan(Duration age) {
        return new ReplayFilter(exception, routingKey, Optional.of(age), newerThan, failure, ids);
    }

    /** Also requires the message to have been parked less than this long ago. */
    public ReplayFilter newerThan(Duration age) {
        return new ReplayFilter(exception, routingKey, olderThan, Optional.of(age), failure, ids);
    }

    /** Also requires the message to be of this failure group, by its {@linkplain Failure#key() key}. */
    public ReplayFilter failure(String key) {
        return new ReplayFilter(exception, routingKey, olderThan, newerThan, Optional.of(key), ids);
    }

    /** Also requires the message to be one of these, by {@linkplain ParkedMessage#id() id}. */
    public ReplayFilter ids(Collection<String> chosen) {
        if (chosen.isEmpty()) {
            throw new IllegalArgumentException("choose at least one message id");
        }
        return new ReplayFilter(exception, routingKey, olderThan, newerThan, failure, Set.copyOf(chosen));
    }

    /** Returns whether a parked message meets every condition; one whose park time is unknown has no age. */
    public boolean matches(ParkedMessage message, Instant now) {
        if (!ids.isEmpty() && !ids.contains(message.id())) {
            return false;
        }
        if (failure.isPresent() && !failure.get().equals(Failure.of(message).key())) {
            return false;
        }
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
