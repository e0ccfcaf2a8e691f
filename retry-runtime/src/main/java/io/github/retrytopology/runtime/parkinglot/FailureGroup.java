package io.github.retrytopology.runtime.parkinglot;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/**
 * The parked messages of one {@link Failure}: how many, and when the first and the last of them were parked.
 *
 * @param failure what they failed of
 * @param count how many are parked, each copy of a twin counted
 * @param first the earliest park time among them, if any is known
 * @param last the latest park time among them, if any is known
 */
public record FailureGroup(Failure failure, long count, Optional<Instant> first, Optional<Instant> last) {

    public FailureGroup {
        requireNonNull(failure, "failure");
        requireNonNull(first, "first");
        requireNonNull(last, "last");
        if (count < 1) {
            throw new IllegalArgumentException("a failure group holds at least one message, got " + count);
        }
    }

    /** The group's {@linkplain Failure#key() key}. */
    public String key() {
        return failure.key();
    }
}
