package io.github.retrytopology.runtime.internal;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.runtime.headers.MessageProperties;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A parking lot's queue, as the parking-lot client needs it from a protocol: count, read, take and purge its
 * messages, and send one to a service's queue, confirmed. What to read, replay and drop, and in which order, is the
 * client's ({@code parkinglot.ParkingLot}); each protocol's adapter only does it. Every method runs on the caller's
 * thread; the visitors and predicates it is given may run on the adapter's threads, as each says.
 */
public interface ParkedQueue {

    /**
     * A parked message as read.
     *
     * @param properties its properties and headers, in no protocol's terms
     * @param body its body; empty where a replay's predicate did not want it
     */
    record Message(MessageProperties properties, byte[] body) {

        public Message {
            requireNonNull(properties, "properties");
            requireNonNull(body, "body");
        }
    }

    /** The queue's name. */
    String name();

    /** How many messages it holds, not counting those being read right now. */
    long count() throws IOException;

    /**
     * Reads the messages it holds when this begins, one at a time, oldest first, until the visitor returns
     * {@code false}; returns how many it read. Nothing is taken: what it read goes back to the queue, which may count
     * them again only a moment after this returns.
     */
    long readInOrder(Predicate<Message> visitor) throws IOException;

    /**
     * Reads up to {@code max} messages, at most as many as it holds when this begins, fast and in no set order, until
     * the visitor returns {@code false}; returns how many it read. The visitor runs on the adapter's threads, several
     * at a time, and must be thread-safe. Nothing is taken, as in {@link #readInOrder}.
     */
    long scan(long max, Predicate<Message> visitor) throws IOException;

    /**
     * Opens a replay over the messages the queue holds when it begins: they come one at a time, oldest first, the
     * body of each only where {@code wanted} takes it. The predicate runs on the adapter's threads and must be
     * thread-safe.
     */
    Replay replay(Predicate<Message> wanted) throws IOException;

    /** Deletes every message it holds; returns how many there were. */
    long purge() throws IOException;

    /**
     * A replay under way, on the caller's thread alone: what it does not acknowledge goes back to the queue when it
     * closes.
     */
    interface Replay extends AutoCloseable {

        /**
         * The next message, or {@code null} once every message the queue held when the replay began was handed out,
         * or none came for a while: messages left the queue meanwhile.
         */
        @Nullable Delivery next() throws IOException;

        /**
         * Sends a delivery's message, with these headers instead of its own, to a queue, and waits until the broker
         * confirms it. Returns the broker's words if it returned the message because no such queue takes it; empty
         * once it holds the message.
         *
         * @throws IOException if the broker refused the message, or did not confirm it in time
         */
        Optional<String> send(Delivery delivery, Map<String, Object> headers, String queue) throws IOException;

        /** How many messages went back to the queue when the replay closed. */
        long returned();

        /** Gives every message handed out and not acknowledged back to the queue. */
        @Override
        void close() throws IOException;
    }

    /** A message a replay handed out. */
    interface Delivery {

        /** The message; its body is empty unless the replay's predicate wanted it. */
        Message message();

        /** Whether the replay's predicate wanted the message. */
        boolean wanted();

        /** Takes the message from the queue for good. */
        void acknowledge() throws IOException;
    }
}
