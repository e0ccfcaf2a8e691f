package io.github.retrytopology.runtime.consumer;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;
import io.github.retrytopology.runtime.amqp091.Republishing;
import io.github.retrytopology.runtime.headers.RetryHeaders;
import io.github.retrytopology.runtime.internal.Arrival;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * One delivery, from its arrival until it is answered, exactly once: acknowledged, requeued, or let go because
 * the channel it came on has closed (the broker requeues it then, and it must not be answered or republished on
 * whatever channel took that one's place). Answering twice is a bug and fails loudly.
 */
final class Delivery {

    final ChannelLife life;
    final Envelope envelope;
    final AMQP.BasicProperties properties;
    final byte[] body;
    final RetryHeaders headers;
    final DeliveryContext context;
    /** The route and handler that take it; null if none does. */
    final Routes.@Nullable Dispatch dispatch;
    private final InFlight inFlight;
    private final AtomicBoolean answered = new AtomicBoolean();

    Delivery(ChannelLife life, Envelope envelope, AMQP.BasicProperties properties, byte[] body,
            RetryHeaders headers, DeliveryContext context, Routes.Dispatch dispatch, InFlight inFlight) {
        this.life = life;
        this.envelope = envelope;
        this.properties = properties;
        this.body = body;
        this.headers = headers;
        this.context = context;
        this.dispatch = dispatch;
        this.inFlight = inFlight;
    }

    /** How it arrived, in the terms of the protocol-free headers. */
    Arrival arrival() {
        return Republishing.arrival(envelope, properties);
    }

    /** Whether the channel life this came in is still going, so that answering it means something. */
    boolean live() {
        return !life.isEnded();
    }

    /**
     * Whether an earlier delivery of this message ended without an answer, as a quorum queue's
     * {@code x-delivery-count} says: the message may be one that crashes its consumer.
     */
    boolean suspect() {
        return headers.deliveryCount() > 0;
    }

    /** Acknowledges the delivery; returns whether the broker was told. */
    boolean ack() {
        return answer(Settlements.Answer.ACK);
    }

    /**
     * Returns the delivery to its queue as it was, because the consumer stops, not because it failed: a nack,
     * which RabbitMQ 4.3 does not count toward a quorum queue's delivery limit (earlier versions count every
     * return). Returns whether the broker was told.
     */
    boolean requeue() {
        return answer(Settlements.Answer.REQUEUE);
    }

    /**
     * Returns the delivery to its queue as one that failed: a reject, which every version counts toward a quorum
     * queue's delivery limit, so that a message that always fails is parked by the broker in the end, even on
     * RabbitMQ 4.3. Returns whether the broker was told.
     */
    boolean reject() {
        return answer(Settlements.Answer.REJECT);
    }

    /**
     * Has the broker dead-letter the delivery as it arrived, to its queue's dead-letter target, the parking lot:
     * for a message that cannot be republished at all. Returns whether the broker was told.
     */
    boolean deadLetter() {
        return answer(Settlements.Answer.DEAD_LETTER);
    }

    /** Lets the delivery go unanswered: its channel has closed, and the broker has requeued it already. */
    void abandon() {
        claim();
        finish();
    }

    private boolean answer(Settlements.Answer answer) {
        claim();
        try {
            return live() && life.settlements.answer(envelope.getDeliveryTag(), answer);
        } finally {
            finish();
        }
    }

    /**
     * Acknowledges deliveries of one channel life in as few frames as it can (see {@link Settlements}). Returns,
     * for each, whether the broker was told. On the settlement lane only.
     */
    static boolean[] ackAll(ChannelLife life, List<Delivery> deliveries) {
        deliveries.forEach(Delivery::claim);
        try {
            if (life.isEnded()) {
                return new boolean[deliveries.size()];
            }
            return life.settlements.acknowledgeTogether(
                    deliveries.stream().map(delivery -> delivery.envelope.getDeliveryTag()).toList());
        } finally {
            deliveries.forEach(Delivery::finish);
        }
    }

    private void finish() {
        life.settlements.release(envelope.getDeliveryTag());
        inFlight.exit();
    }

    private void claim() {
        if (!answered.compareAndSet(false, true)) {
            throw new IllegalStateException(this + " was answered twice");
        }
    }

    @Override
    public String toString() {
        return context + " (delivery " + envelope.getDeliveryTag() + " on channel "
                + life.channel.getChannelNumber() + ")";
    }
}
