package io.github.retrytopology.runtime.parkinglot;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.ShutdownSignalException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The parked messages of a queue one at a time, oldest first, each to be acknowledged, which takes it from the
 * parking lot, or left, which returns it there when the cursor closes: what a replay reads.
 *
 * <p>Why not {@code basic.get}: a replay of a few messages spread through a large parking lot must look at nearly
 * all of them, one round trip each. A cursor consumes instead, and holds what it has looked at without acknowledging
 * it, so that the parking lot hands it the next message, not the same one again. A quorum queue hands one consumer
 * at most {@value ParkingLotReading#PER_CHANNEL} unacknowledged messages, so the cursor subscribes on one more
 * channel each time the last is full. At most two channels' worth of messages wait in memory at a time; those
 * looked at and left keep nothing but their place.
 *
 * <p>Not thread-safe: one thread takes the messages and acknowledges them.
 */
final class ParkingLotCursor implements AutoCloseable {

    private final Connection connection;
    private final String queue;
    private final long target;
    private final LongSupplier ticker;
    private final BlockingQueue<Delivery> arrived = new LinkedBlockingQueue<>();
    private final List<Subscription> subscriptions = new ArrayList<>();
    private final int maxChannels;
    private volatile boolean closed;
    private volatile ShutdownSignalException lost;
    private long taken;
    private long returned;

    private ParkingLotCursor(Connection connection, String queue, long target, LongSupplier ticker) {
        this.connection = connection;
        this.queue = queue;
        this.target = target;
        this.ticker = ticker;
        this.maxChannels = ParkingLotReading.channelsFor(connection, target);
    }

    /** A cursor over the first {@code target} messages of the queue: those parked when a replay begins. */
    static ParkingLotCursor open(Connection connection, String queue, long target, LongSupplier ticker) {
        return new ParkingLotCursor(connection, queue, target, ticker);
    }

    /**
     * The next parked message, or {@code null} once the cursor has handed out its target, or when none arrives for
     * {@link ParkingLotReading#IDLE}: messages left the parking lot meanwhile.
     *
     * @throws IOException if a channel of the cursor closed under it: its messages went back to the parking lot, and
     *     acknowledging one now would fail
     */
    Delivery next() throws IOException {
        if (taken >= target) {
            return null;
        }
        long deadline = ticker.getAsLong() + ParkingLotReading.IDLE.toNanos();
        while (true) {
            checkOpen();
            // One channel ahead: the broker fills the next while the messages of the last are looked at.
            if (subscriptions.size() < maxChannels && arrived.size() < ParkingLotReading.PER_CHANNEL
                    && (subscriptions.isEmpty() || subscriptions.get(subscriptions.size() - 1).full())) {
                subscribe();
                deadline = ticker.getAsLong() + ParkingLotReading.IDLE.toNanos();
            }
            Delivery delivery = arrived.poll();
            if (delivery == null) {
                try {
                    delivery = arrived.poll(20, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while reading the parking lot", e);
                }
            }
            if (delivery != null) {
                checkOpen();
                taken++;
                return delivery;
            }
            if (ticker.getAsLong() - deadline >= 0) {
                return null;
            }
        }
    }

    private void checkOpen() throws IOException {
        if (lost != null) {
            throw new IOException("a channel reading parking lot " + queue + " closed: " + lost.getMessage(), lost);
        }
    }

    private void subscribe() throws IOException {
        Channel channel = connection.createChannel();
        Subscription subscription = new Subscription(channel);
        subscriptions.add(subscription);
        channel.basicQos(ParkingLotReading.PER_CHANNEL);
        channel.basicConsume(queue, false, subscription);
    }

    /** Closes the cursor's channels, which returns every message it handed out and did not acknowledge. */
    @Override
    public void close() throws IOException {
        returned = subscriptions.stream().mapToLong(Subscription::unacknowledged).sum();
        closed = true;
        IOException failure = null;
        for (Subscription subscription : subscriptions) {
            try {
                ParkingLot.close(subscription.getChannel());
            } catch (IOException e) {
                failure = failure == null ? e : failure;
            }
        }
        arrived.clear();
        if (failure != null) {
            throw failure;
        }
    }

    /** How many messages the cursor held unacknowledged when it closed, and so returned to the parking lot. */
    long returned() {
        return returned;
    }

    /** A parked message handed out by a cursor. */
    final class Delivery {
        private final Subscription subscription;
        private final long tag;
        private final ParkedMessage message;

        private Delivery(Subscription subscription, long tag, ParkedMessage message) {
            this.subscription = subscription;
            this.tag = tag;
            this.message = message;
        }

        ParkedMessage message() {
            return message;
        }

        /** Takes the message from the parking lot. */
        void acknowledge() throws IOException {
            checkOpen();
            subscription.getChannel().basicAck(tag, false);
            subscription.acknowledged++;
        }
    }

    /** One channel's consumer: what arrived on it, and how many of those were acknowledged. */
    private final class Subscription extends DefaultConsumer {
        private volatile long delivered;
        /** Written by the cursor's thread only. */
        private long acknowledged;

        Subscription(Channel channel) {
            super(channel);
        }

        @Override
        public void handleDelivery(String consumerTag, Envelope envelope, AMQP.BasicProperties properties,
                byte[] body) {
            if (closed) {
                return; // back to the parking lot with its channel
            }
            delivered++; // only this channel's consumer thread writes it
            arrived.add(new Delivery(this, envelope.getDeliveryTag(), new ParkedMessage(properties, body, 1)));
        }

        @Override
        public void handleShutdownSignal(String consumerTag, ShutdownSignalException signal) {
            if (!closed && lost == null) {
                lost = signal;
            }
        }

        @Override
        public void handleCancel(String consumerTag) {
            if (!closed && lost == null) {
                lost = new ShutdownSignalException(false, false, null, "the broker cancelled the consumer (was "
                        + queue + " deleted?)");
            }
        }

        /** Whether the broker will send it no more until some are acknowledged. */
        boolean full() {
            return unacknowledged() >= ParkingLotReading.PER_CHANNEL;
        }

        long unacknowledged() {
            return delivered - acknowledged;
        }
    }
}
