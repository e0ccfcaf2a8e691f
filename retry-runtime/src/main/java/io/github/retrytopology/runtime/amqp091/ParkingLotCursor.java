package io.github.retrytopology.runtime.amqp091;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.ShutdownSignalException;
import io.github.retrytopology.runtime.internal.ParkedQueue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The parked messages of a queue one at a time, in the order the queue hands them out, each to be acknowledged,
 * which takes it from the parking lot, or left, which returns it there when the cursor closes: what a replay reads.
 * That is oldest first, except that two neighbours that arrive on different channels may come out swapped.
 *
 * <p>Why not {@code basic.get}: a replay of a few messages spread through a large parking lot must look at nearly
 * all of them, one round trip each. A cursor consumes instead, and holds what it has looked at without acknowledging
 * it, so that the parking lot hands it the next message, not the same one again. A quorum queue hands one consumer
 * at most {@value ParkingLotReading#PER_CHANNEL} unacknowledged messages, so the cursor subscribes on one more
 * channel each time the last is full: one channel ahead of the message it hands out.
 *
 * <p>What waits in memory is bounded. A message the caller does not want loses its body as it arrives: a replay
 * looks at its headers only. The bodies of those it wants wait up to {@code budget} bytes; each new channel holds at
 * most as many messages as the budget takes of the largest body seen so far, and the first only a few, so that
 * large messages do not fill memory before the cursor knows their size.
 *
 * <p>Not thread-safe: one thread takes the messages and acknowledges them.
 */
public final class ParkingLotCursor implements AutoCloseable {

    /** Bodies of wanted messages that may wait in memory, by default. */
    public static final long BUDGET = 64L << 20;
    /** How many messages the first channel holds, before the cursor knows how large the bodies are. */
    private static final int FIRST_PREFETCH = 16;
    private static final byte[] NO_BODY = new byte[0];

    private final Connection connection;
    private final String queue;
    private final long target;
    private final LongSupplier ticker;
    private final Predicate<ParkedQueue.Message> wanted;
    private final long budget;
    private final int maxChannels;
    private final BlockingQueue<Delivery> arrived = new LinkedBlockingQueue<>();
    private final List<Subscription> subscriptions = new ArrayList<>();
    /** The bytes of the wanted bodies that arrived and were not handed out yet. */
    private final AtomicLong waiting = new AtomicLong();
    /** The largest body that arrived, wanted or not. */
    private final AtomicLong largest = new AtomicLong();
    /** Messages that arrived, on every channel. */
    private final AtomicLong arrivals = new AtomicLong();
    private volatile boolean closed;
    private volatile @Nullable ShutdownSignalException lost;
    private long taken;
    private long returned;
    private long mostWaiting;

    private ParkingLotCursor(Connection connection, String queue, long target, LongSupplier ticker,
            Predicate<ParkedQueue.Message> wanted, long budget) {
        this.connection = connection;
        this.queue = queue;
        this.target = target;
        this.ticker = ticker;
        this.wanted = wanted;
        this.budget = budget;
        this.maxChannels = ParkingLotReading.channelsAvailable(connection);
    }

    /**
     * A cursor over the first {@code target} messages of the queue, those parked when a replay begins, that keeps
     * the bodies of the messages {@code wanted} takes, up to {@code budget} bytes of them waiting at a time. The
     * predicate runs on the client's consumer threads, and must be thread-safe.
     */
    public static ParkingLotCursor open(Connection connection, String queue, long target, LongSupplier ticker,
            Predicate<ParkedQueue.Message> wanted, long budget) {
        return new ParkingLotCursor(connection, queue, target, ticker, wanted, budget);
    }

    /**
     * The next parked message, or {@code null} once the cursor has handed out its target, or when none arrives for
     * {@link ParkingLotReading#IDLE}: messages left the parking lot meanwhile.
     *
     * @throws IOException if a channel of the cursor closed under it: its messages went back to the parking lot, and
     *     acknowledging one now would fail
     */
    public @Nullable Delivery next() throws IOException {
        if (taken >= target) {
            return null;
        }
        long deadline = ticker.getAsLong() + ParkingLotReading.IDLE.toNanos();
        while (true) {
            checkOpen();
            if (ahead()) {
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
                mostWaiting = Math.max(mostWaiting, waiting.getAndAdd(-delivery.message.body().length));
                return delivery;
            }
            if (ticker.getAsLong() - deadline >= 0) {
                return null;
            }
        }
    }

    /**
     * Whether to subscribe on one more channel: when the last is full, what waits is less than a channel's worth
     * and within the budget, and the target is not reached yet.
     */
    private boolean ahead() {
        if (subscriptions.isEmpty()) {
            return true;
        }
        Subscription last = subscriptions.get(subscriptions.size() - 1);
        return last.full() && subscriptions.size() < maxChannels && arrived.size() < ParkingLotReading.PER_CHANNEL
                && waiting.get() < budget && arrivals.get() < target;
    }

    private void checkOpen() throws IOException {
        ShutdownSignalException lost = this.lost;
        if (lost != null) {
            throw new IOException("a channel reading parking lot " + queue + " closed: " + lost.getMessage(), lost);
        }
    }

    private void subscribe() throws IOException {
        int prefetch = subscriptions.isEmpty() ? FIRST_PREFETCH
                : (int) Math.max(1, Math.min(ParkingLotReading.PER_CHANNEL, budget / Math.max(1, largest.get())));
        Channel channel = connection.createChannel();
        Subscription subscription = new Subscription(channel, prefetch);
        subscriptions.add(subscription);
        channel.basicQos(prefetch);
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
                ParkingLotQueue.close(subscription.getChannel());
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
    public long returned() {
        return returned;
    }

    /** How many channels the cursor subscribed on. */
    public int channels() {
        return subscriptions.size();
    }

    /** The most bytes of wanted bodies that waited in memory at once, as far as the cursor saw. */
    public long mostWaiting() {
        return Math.max(mostWaiting, waiting.get());
    }

    /** A parked message handed out by a cursor, with its properties as the client delivered them, to send it again. */
    public final class Delivery implements ParkedQueue.Delivery {
        private final Subscription subscription;
        private final long tag;
        private final AMQP.BasicProperties properties;
        private final ParkedQueue.Message message;
        private final boolean wanted;

        private Delivery(Subscription subscription, long tag, AMQP.BasicProperties properties,
                ParkedQueue.Message message, boolean wanted) {
            this.subscription = subscription;
            this.tag = tag;
            this.properties = properties;
            this.message = message;
            this.wanted = wanted;
        }

        @Override
        public ParkedQueue.Message message() {
            return message;
        }

        /** The message's properties as the client delivered them. */
        AMQP.BasicProperties properties() {
            return properties;
        }

        @Override
        public boolean wanted() {
            return wanted;
        }

        @Override
        public void acknowledge() throws IOException {
            checkOpen();
            subscription.getChannel().basicAck(tag, false);
            subscription.acknowledged++;
        }
    }

    /** One channel's consumer: what arrived on it, and how many of those were acknowledged. */
    private final class Subscription extends DefaultConsumer {
        private final int prefetch;
        /** Written by this channel's consumer thread only: the client hands it one delivery at a time. */
        private volatile long delivered;
        /** Written by the cursor's thread only. */
        private long acknowledged;

        Subscription(Channel channel, int prefetch) {
            super(channel);
            this.prefetch = prefetch;
        }

        @Override
        public void handleDelivery(String consumerTag, Envelope envelope, AMQP.BasicProperties properties,
                byte[] body) {
            if (closed) {
                return; // back to the parking lot with its channel
            }
            delivered++;
            arrivals.incrementAndGet();
            largest.accumulateAndGet(body.length, Math::max);
            ParkedQueue.Message message = new ParkedQueue.Message(Received.properties(properties), body);
            boolean keep = wanted.test(message);
            if (keep) {
                waiting.addAndGet(body.length);
            } else {
                message = new ParkedQueue.Message(message.properties(), NO_BODY);
            }
            arrived.add(new Delivery(this, envelope.getDeliveryTag(), properties, message, keep));
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
            return unacknowledged() >= prefetch;
        }

        long unacknowledged() {
            return delivered - acknowledged;
        }
    }
}
