package io.github.retrytopology.runtime.amqp091;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import io.github.retrytopology.runtime.internal.ParkedQueue;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Reads a parking lot without taking anything from it, fast: consumers on many channels, none of which
 * acknowledges, each holding up to {@value #PER_CHANNEL} messages, which return to the parking lot when their
 * channels close.
 *
 * <p>Why not {@code basic.get}: it is one round trip per message, about 2,300 messages a second. Why many
 * channels: a quorum queue hands one consumer at most 2,000 unacknowledged messages, whatever its prefetch, and a
 * reading must hold every message it has read until it ends, or it would read the same ones again.
 *
 * <p>The visitor runs on the client's consumer threads, several at a time, and must be thread-safe. It returns
 * {@code false} to end the reading early.
 */
public final class ParkingLotReading {

    /** The most unacknowledged messages a quorum queue delivers to one consumer. */
    public static final int PER_CHANNEL = 2_000;
    /** The reading ends when this long passes without a delivery: messages left the parking lot while it ran. */
    static final Duration IDLE = Duration.ofMillis(500);
    /** Channels the connection keeps for others while a reading runs. */
    private static final int SPARE_CHANNELS = 16;

    private final Predicate<ParkedQueue.Message> visitor;
    private final LongSupplier ticker;
    private final Object lock = new Object();
    /** Messages handed to the visitor and done with. */
    private long visited;
    /** Messages with the visitor now. */
    private int visiting;
    private long lastDelivery;
    private boolean stopped;
    private @Nullable RuntimeException failure;

    private ParkingLotReading(Predicate<ParkedQueue.Message> visitor, LongSupplier ticker) {
        this.visitor = visitor;
        this.ticker = ticker;
    }

    /**
     * Reads up to {@code max} messages of a queue, at most as many as it holds when the reading begins, and hands
     * each to the visitor; returns how many were read. Every message is back in the queue, or on its way back,
     * when this returns.
     */
    static long read(Connection connection, String queue, long max, LongSupplier ticker,
            Predicate<ParkedQueue.Message> visitor) throws IOException {
        return new ParkingLotReading(visitor, ticker).run(connection, queue, max);
    }

    private long run(Connection connection, String queue, long max) throws IOException {
        List<Channel> channels = new ArrayList<>();
        try {
            Channel first = connection.createChannel();
            channels.add(first);
            long target = Math.min(first.messageCount(queue), max);
            if (target <= 0) {
                return 0;
            }
            int wanted = channelsFor(connection, target);
            synchronized (lock) {
                lastDelivery = ticker.getAsLong();
            }
            subscribe(first, queue);
            while (channels.size() < wanted) {
                Channel channel = connection.createChannel();
                channels.add(channel);
                subscribe(channel, queue);
            }
            return await(target);
        } finally {
            synchronized (lock) {
                stopped = true;
            }
            for (Channel channel : channels) {
                ParkingLotQueue.close(channel);
            }
        }
    }

    /**
     * How many channels it takes to hold {@code target} messages unacknowledged, as many as the connection can spare
     * at most.
     */
    static int channelsFor(Connection connection, long target) {
        return (int) Math.min((target + PER_CHANNEL - 1) / PER_CHANNEL, channelsAvailable(connection));
    }

    /** How many channels a reading may open, leaving the connection's others some. */
    static int channelsAvailable(Connection connection) {
        int max = connection.getChannelMax() == 0 ? 2_047 : connection.getChannelMax();
        return Math.max(1, max - SPARE_CHANNELS);
    }

    private void subscribe(Channel channel, String queue) throws IOException {
        channel.basicQos(PER_CHANNEL);
        channel.basicConsume(queue, false, new DefaultConsumer(channel) {
            @Override
            public void handleDelivery(String consumerTag, Envelope envelope, AMQP.BasicProperties properties,
                    byte[] body) {
                deliver(new ParkedQueue.Message(Received.properties(properties), body));
            }
        });
    }

    private void deliver(ParkedQueue.Message message) {
        synchronized (lock) {
            if (stopped) {
                return; // back to the parking lot with its channel
            }
            visiting++;
            lastDelivery = ticker.getAsLong();
        }
        // Outside the lock: the visitor is thread-safe, and the consumers of the other channels go on meanwhile.
        boolean more = false;
        RuntimeException thrown = null;
        try {
            more = visitor.test(message);
        } catch (RuntimeException e) {
            thrown = e;
        } finally {
            synchronized (lock) {
                visiting--;
                visited++;
                if (thrown != null && failure == null) {
                    failure = thrown;
                }
                if (!more) {
                    stopped = true;
                }
                lock.notifyAll();
            }
        }
    }

    /**
     * Waits until every message was visited, the visitor asked to stop, or deliveries stopped coming; then until
     * the visitor is done with those it holds. Returns how many it visited.
     */
    private long await(long target) throws IOException {
        synchronized (lock) {
            try {
                while (!stopped && visited < target) {
                    long left = IDLE.toNanos() - (ticker.getAsLong() - lastDelivery);
                    if (left <= 0 && visiting == 0) {
                        break;
                    }
                    lock.wait(Math.max(1, left / 1_000_000));
                }
                stopped = true;
                while (visiting > 0) {
                    lock.wait();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while reading the parking lot", e);
            }
            if (failure != null) {
                throw failure;
            }
            return Math.min(visited, target);
        }
    }
}
