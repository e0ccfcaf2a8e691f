package io.github.retrytopology.runtime.amqp091;

import static java.util.Objects.requireNonNull;

import com.rabbitmq.client.AlreadyClosedException;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.internal.ParkedQueue;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A parking lot's queue over AMQP 0.9.1 channels of one connection: {@code basic.get} to read in order, consumers
 * that acknowledge nothing to read fast ({@link ParkingLotReading}) or one at a time ({@link ParkingLotCursor}), and
 * a replay sent through the default exchange, {@code mandatory}, with publisher confirms. Each call opens the
 * channels it needs and closes them, which returns what they held unacknowledged.
 */
public final class ParkingLotQueue implements ParkedQueue {

    private static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(30);

    private final Connection connection;
    private final String queue;
    /** The monotonic clock of the waits, in nanoseconds. */
    private final LongSupplier ticker;

    /** The queue {@code queue} on a connection to its virtual host. */
    public ParkingLotQueue(Connection connection, String queue, LongSupplier ticker) {
        this.connection = requireNonNull(connection, "connection");
        this.queue = requireNonNull(queue, "queue");
        this.ticker = requireNonNull(ticker, "ticker");
    }

    @Override
    public String name() {
        return queue;
    }

    @Override
    public long count() throws IOException {
        Channel channel = connection.createChannel();
        try {
            return channel.messageCount(queue);
        } finally {
            close(channel);
        }
    }

    @Override
    public long readInOrder(Predicate<Message> visitor) throws IOException {
        Channel channel = connection.createChannel();
        long read = 0;
        try {
            long parked = channel.messageCount(queue);
            while (read < parked) {
                GetResponse response = channel.basicGet(queue, false);
                if (response == null) {
                    break;
                }
                read++;
                if (!visitor.test(new Message(Received.properties(response.getProps()), response.getBody()))) {
                    break;
                }
            }
        } finally {
            close(channel);
        }
        return read;
    }

    @Override
    public long scan(long max, Predicate<Message> visitor) throws IOException {
        return ParkingLotReading.read(connection, queue, max, ticker, visitor);
    }

    @Override
    public Replay replay(Predicate<Message> wanted) throws IOException {
        Channel channel = connection.createChannel();
        try {
            AtomicReference<@Nullable String> returned = new AtomicReference<>();
            channel.addReturnListener(message -> returned.set(message.getReplyCode() + " " + message.getReplyText()));
            channel.confirmSelect();
            ParkingLotCursor cursor = ParkingLotCursor.open(connection, queue, channel.messageCount(queue), ticker,
                    wanted, ParkingLotCursor.BUDGET);
            return new ChannelReplay(channel, cursor, returned);
        } catch (IOException | RuntimeException e) {
            try {
                close(channel);
            } catch (IOException | RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    @Override
    public long purge() throws IOException {
        Channel channel = connection.createChannel();
        try {
            return channel.queuePurge(queue).getMessageCount();
        } finally {
            close(channel);
        }
    }

    /** A replay: a cursor over the parking lot, and a channel with publisher confirms that sends what it replays. */
    private static final class ChannelReplay implements Replay {
        private final Channel channel;
        private final ParkingLotCursor cursor;
        private final AtomicReference<@Nullable String> returned;

        ChannelReplay(Channel channel, ParkingLotCursor cursor, AtomicReference<@Nullable String> returned) {
            this.channel = channel;
            this.cursor = cursor;
            this.returned = returned;
        }

        @Override
        public @Nullable Delivery next() throws IOException {
            return cursor.next();
        }

        @Override
        public Optional<String> send(Delivery delivery, Map<String, Object> headers, String target)
                throws IOException {
            ParkingLotCursor.Delivery handed = (ParkingLotCursor.Delivery) delivery;
            channel.basicPublish(Topology.DEFAULT_EXCHANGE, target, true,
                    Republishing.republish(handed.properties(), headers), handed.message().body());
            awaitConfirm(channel);
            return Optional.ofNullable(returned.get());
        }

        @Override
        public long returned() {
            return cursor.returned();
        }

        @Override
        public void close() throws IOException {
            try {
                cursor.close(); // what it did not acknowledge goes back to the parking lot
            } finally {
                ParkingLotQueue.close(channel);
            }
        }
    }

    private static void awaitConfirm(Channel channel) throws IOException {
        try {
            channel.waitForConfirmsOrDie(CONFIRM_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the broker to confirm a replayed message", e);
        } catch (TimeoutException e) {
            throw new IOException("the broker did not confirm a replayed message within " + CONFIRM_TIMEOUT, e);
        }
    }

    /** Closes a channel, which requeues what it holds unacknowledged; one the broker closed already is fine. */
    static void close(Channel channel) throws IOException {
        try {
            if (channel.isOpen()) {
                channel.close();
            }
        } catch (TimeoutException e) {
            throw new IOException("the channel did not close in time", e);
        } catch (AlreadyClosedException e) {
            // closed by the broker already: its messages are requeued
        }
    }
}
