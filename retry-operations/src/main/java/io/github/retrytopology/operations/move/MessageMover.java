package io.github.retrytopology.operations.move;

import static java.util.Objects.requireNonNull;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.Recoverable;
import java.io.IOException;
import java.util.function.LongSupplier;

/**
 * Moves the messages of one queue to another through the default exchange, each copy with headers that a
 * {@link HeaderRewrite} computes, and loses none: what a migration off a team's old retry topology moves its waiting
 * messages with.
 *
 * <h2>Nothing lost</h2>
 * Each copy is published persistent, {@code mandatory}, with publisher confirms, and its original is acknowledged in
 * the source only once the broker has confirmed the copy. A refused copy (a {@code basic.nack}, such as a full
 * destination with {@code overflow: reject-publish}), a returned one (the destination does not exist), a confirm
 * that does not come within the timeout, or a channel that closes stops the move with a {@link MoveException}: the
 * originals of the copies confirmed are acknowledged, and every other message the mover held goes back to the source
 * (a {@code basic.nack} with requeue, which RabbitMQ 4.3 does not count toward a quorum queue's delivery limit). A
 * process killed at any moment leaves each message in the source, the destination or both; those in both are at most
 * the messages on their way ({@link MoveOptions#prefetch()}). Running the move again finishes it.
 *
 * <h2>Fast</h2>
 * A consumer takes the messages with a prefetch window, not {@code basic.get}, which costs a round trip a message;
 * the originals are acknowledged with {@code multiple} as the broker confirms their copies, so that the window keeps
 * moving. Copies go out on a channel of their own, the originals are acknowledged on the consumer's.
 *
 * <h2>Drained</h2>
 * The source is drained at the first moment the mover has no copy awaiting a confirm and nothing delivered waiting to
 * be copied, and a passive declaration, read then, counts no ready message in the source (the mover checks at most
 * every 20 ms). It then cancels its consumer, and copies whatever the source had already handed it. A message that
 * arrives in the source later (an old wait queue dead-lettering into it, a publisher) stays there, counted in
 * {@link MoveReport#left()}, for the next run; a source fed as fast as the mover empties it is never drained, and a
 * move of one takes a {@linkplain MoveOptions#limit(long) limit}, or its inflow stopped first.
 *
 * <h2>Delivered once</h2>
 * Every delivery the mover takes is acknowledged, or returned once when the move stops on a failure: never requeued
 * along the way. Stopping after a limit returns nothing either: the mover withholds the acknowledgements of the last
 * {@link MoveOptions#prefetch()} messages until its consumer is cancelled, so that the source never hands it more
 * than it will move. A quorum source then counts no delivery against its delivery limit; after a crash, the broker
 * returns what the mover held, and counts one.
 *
 * <h2>Threads</h2>
 * A move runs on the caller's thread, which publishes, acknowledges and calls the {@link HeaderRewrite}; the client's
 * threads only hand it deliveries, confirms and returns. One mover moves one queue at a time on one connection, which
 * must not recover automatically: a recovered channel would subscribe again behind the mover's back, its delivery
 * tags restarted.
 */
public final class MessageMover {

    private final Connection connection;
    private final LongSupplier ticker;

    private MessageMover(Connection connection, LongSupplier ticker) {
        this.connection = connection;
        this.ticker = ticker;
    }

    /**
     * A mover on this connection, to the virtual host of the source and destination.
     *
     * @throws IllegalArgumentException if the connection recovers automatically
     */
    public static MessageMover of(Connection connection) {
        return of(connection, System::nanoTime);
    }

    /** The same, with a monotonic ticker in nanoseconds for its timeouts. */
    static MessageMover of(Connection connection, LongSupplier ticker) {
        requireNonNull(connection, "connection");
        if (connection instanceof Recoverable) {
            throw new IllegalArgumentException("a mover needs a connection without automatic recovery (a recovered "
                    + "channel would subscribe to the source again behind its back); open it with "
                    + "ConnectionFactory.setAutomaticRecoveryEnabled(false)");
        }
        return new MessageMover(connection, requireNonNull(ticker, "ticker"));
    }

    /**
     * Moves the messages of {@code source} to {@code destination}, until the source is drained or the limit is
     * reached.
     *
     * @param rewrite the headers of each copy
     * @return how many moved, and why it stopped
     * @throws MoveException if it stopped before its end: every message is in the source, the destination or both
     * @throws IOException if a queue does not exist, or the broker refused the mover's channels
     */
    public MoveReport move(String source, String destination, HeaderRewrite rewrite, MoveOptions options)
            throws IOException {
        requireNonNull(destination, "destination");
        return move(source, Destinations.of(destination), rewrite, options);
    }

    /**
     * Moves the messages of {@code source}, each to the queue {@code destinations} chooses for it, until the source
     * is drained or the limit is reached.
     *
     * @throws MoveException if it stopped before its end: every message is in the source, a destination or both
     * @throws IOException if a queue does not exist, or the broker refused the mover's channels
     */
    public MoveReport move(String source, Destinations destinations, HeaderRewrite rewrite, MoveOptions options)
            throws IOException {
        requireNonNull(source, "source");
        requireNonNull(destinations, "destinations");
        requireNonNull(rewrite, "rewrite");
        requireNonNull(options, "options");
        if (destinations.queues().contains(source)) {
            throw new IllegalArgumentException("a move's source and destination are two queues, got '" + source
                    + "' for both");
        }
        try (Move move = new Move(connection, source, destinations, rewrite, options, ticker)) {
            return move.run();
        }
    }
}
