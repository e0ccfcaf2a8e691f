package io.github.retrytopology.runtime.parkinglot;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.OptionalDouble;

/**
 * How to replay: how many messages at most, how fast, in whose name, and whom to tell as it goes.
 *
 * @param limit replay at most this many messages
 * @param dryRun replay nothing, and report what would be replayed
 * @param rate at most this many messages a second; none is as fast as the broker confirms them
 * @param replayedBy who replays, written into each replayed message with the time; none leaves only the time
 * @param progress told before each message is looked at, after each is replayed, and at the end
 */
public record ReplayOptions(int limit, boolean dryRun, OptionalDouble rate, Optional<String> replayedBy,
        ReplayProgress progress) {

    /** The fastest rate a replay takes: one message a microsecond is as good as none. */
    public static final double MAX_RATE = 1_000_000;

    public ReplayOptions {
        if (limit < 0) {
            throw new IllegalArgumentException("a replay's limit is 0 or more, got " + limit);
        }
        requireNonNull(rate, "rate");
        if (rate.isPresent() && !(rate.getAsDouble() > 0 && rate.getAsDouble() <= MAX_RATE)) {
            throw new IllegalArgumentException("a replay's rate is more than 0 and at most " + (long) MAX_RATE
                    + " messages a second, got " + rate.getAsDouble());
        }
        requireNonNull(replayedBy, "replayedBy");
        replayedBy.ifPresent(name -> {
            if (name.isBlank()) {
                throw new IllegalArgumentException("who replays is named, got a blank name");
            }
        });
        requireNonNull(progress, "progress");
    }

    /** Replays up to {@code limit} messages as fast as the broker confirms them, naming no one and telling no one. */
    public static ReplayOptions limit(int limit) {
        return new ReplayOptions(limit, false, OptionalDouble.empty(), Optional.empty(), ReplayProgress.NONE);
    }

    /** The same, as a dry run. */
    public ReplayOptions dryRun(boolean dryRun) {
        return new ReplayOptions(limit, dryRun, rate, replayedBy, progress);
    }

    /** The same, at most this many messages a second. */
    public ReplayOptions rate(double perSecond) {
        return new ReplayOptions(limit, dryRun, OptionalDouble.of(perSecond), replayedBy, progress);
    }

    /** The same, in this person's or tool's name. */
    public ReplayOptions replayedBy(String name) {
        return new ReplayOptions(limit, dryRun, rate, Optional.of(name), progress);
    }

    /** The same, telling this listener. */
    public ReplayOptions progress(ReplayProgress listener) {
        return new ReplayOptions(limit, dryRun, rate, replayedBy, listener);
    }

    /** What a replay has done so far. */
    @FunctionalInterface
    public interface ReplayProgress {

        /** Tells nothing to no one. */
        ReplayProgress NONE = (scanned, matched, replayed) -> { };

        /**
         * Called on the replaying thread before each message is looked at, after each is replayed, and at the end.
         *
         * @param scanned parked messages looked at so far
         * @param matched how many of them the filter took
         * @param replayed how many of them the broker confirmed in the service's queue
         */
        void update(int scanned, int matched, int replayed);
    }
}
