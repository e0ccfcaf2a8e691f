package io.github.retrytopology.operations.move;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;

/**
 * How to move: how many messages at most, what becomes of a message's own expiration and user id, how many messages
 * may be on their way at once, and how long to wait for the broker.
 *
 * @param limit move at most this many messages; {@link Long#MAX_VALUE} for all
 * @param expiration what becomes of the expiration a message's publisher set
 * @param user the user the connection is authenticated as: a message's user id is kept only if it is this one,
 *     since the broker refuses a publish that names another user (unless the user is an impersonator); none drops
 *     every user id
 * @param prefetch how many messages the source may hand the mover before it acknowledges any: the pipeline between
 *     a delivery and its copy's confirm. At most {@value #MAX_PREFETCH}
 * @param timeout how long the mover waits for a confirm, and for a delivery from a source that holds ready messages
 *     (one that a single active consumer or a consumer of higher priority keeps to itself), before it stops
 */
public record MoveOptions(long limit, Expiration expiration, Optional<String> user, int prefetch, Duration timeout) {

    /**
     * The most messages on their way at once: a quorum queue hands one consumer no more unacknowledged messages than
     * this, and a mover told to stop after a number counts on the source handing it as many as it asks for.
     */
    public static final int MAX_PREFETCH = 2_000;

    public MoveOptions {
        if (limit < 0) {
            throw new IllegalArgumentException("a move's limit is 0 or more, got " + limit);
        }
        requireNonNull(expiration, "expiration");
        requireNonNull(user, "user");
        if (prefetch < 1 || prefetch > MAX_PREFETCH) {
            throw new IllegalArgumentException("a move's prefetch is from 1 to " + MAX_PREFETCH + ", got " + prefetch);
        }
        requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("a move's timeout is more than 0, got " + timeout);
        }
    }

    /**
     * Every message, expirations dropped, user ids dropped, 1,000 messages on their way at once, as a dynamic shovel
     * takes them, and a minute's patience.
     */
    public static MoveOptions defaults() {
        return new MoveOptions(Long.MAX_VALUE, Expiration.DROP, Optional.empty(), 1_000, Duration.ofMinutes(1));
    }

    /** The same, stopping after {@code limit} messages. */
    public MoveOptions limit(long limit) {
        return new MoveOptions(limit, expiration, user, prefetch, timeout);
    }

    /** The same, with what becomes of a message's own expiration. */
    public MoveOptions expiration(Expiration expiration) {
        return new MoveOptions(limit, expiration, user, prefetch, timeout);
    }

    /** The same, keeping the user ids of the messages that this user published. */
    public MoveOptions user(String user) {
        return new MoveOptions(limit, expiration, Optional.of(user), prefetch, timeout);
    }

    /** The same, with this many messages on their way at once. */
    public MoveOptions prefetch(int prefetch) {
        return new MoveOptions(limit, expiration, user, prefetch, timeout);
    }

    /** The same, with this patience. */
    public MoveOptions timeout(Duration timeout) {
        return new MoveOptions(limit, expiration, user, prefetch, timeout);
    }

    /**
     * What becomes of the expiration a message's publisher set. A message keeps it when a client republishes it, so a
     * copy would expire out of its destination on the old publisher's terms: out of a tier queue before the tier's
     * delay, or out of a parking lot. The {@link HeaderRewrite} sees it, and may keep it in a header.
     */
    public enum Expiration {
        /** The copy has none. */
        DROP,
        /** The copy keeps it, counted from its arrival in the destination. */
        KEEP
    }
}
