package io.github.retrytopology.runtime.consumer;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.AlreadyClosedException;
import com.rabbitmq.client.Envelope;
import io.github.retrytopology.runtime.headers.RetryHeaders;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One delivery, from its arrival until it is answered, exactly once: acknowledged, requeued, or let go because
 * the channel it came on has closed (the broker requeues it then, and it must not be answered or republished on
 * whatever channel took that one's place). Answering twice is a bug and fails loudly.
 */
final class Delivery {

    private static final Logger log = LoggerFactory.getLogger(RetryingConsumer.class);

    final ChannelLife life;
    final Envelope envelope;
    final AMQP.BasicProperties properties;
    final byte[] body;
    final RetryHeaders headers;
    final DeliveryContext context;
    /** The route and handler that take it; null if none does. */
    final Routes.Dispatch dispatch;
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
        return answer(Answer.ACK);
    }

    /**
     * Returns the delivery to its queue as it was, because the consumer stops, not because it failed: a nack,
     * which RabbitMQ 4.3 does not count toward a quorum queue's delivery limit (earlier versions count every
     * return). Returns whether the broker was told.
     */
    boolean requeue() {
        return answer(Answer.REQUEUE);
    }

    /**
     * Returns the delivery to its queue as one that failed: a reject, which every version counts toward a quorum
     * queue's delivery limit, so that a message that always fails is parked by the broker in the end, even on
     * RabbitMQ 4.3. Returns whether the broker was told.
     */
    boolean reject() {
        return answer(Answer.REJECT);
    }

    /**
     * Has the broker dead-letter the delivery as it arrived, to its queue's dead-letter target, the parking lot:
     * for a message that cannot be republished at all. Returns whether the broker was told.
     */
    boolean deadLetter() {
        return answer(Answer.DEAD_LETTER);
    }

    private enum Answer { ACK, REQUEUE, REJECT, DEAD_LETTER }

    /** Lets the delivery go unanswered: its channel has closed, and the broker has requeued it already. */
    void abandon() {
        claim();
        finish();
    }

    private boolean answer(Answer answer) {
        claim();
        try {
            if (!live()) {
                return false;
            }
            switch (answer) {
                case ACK -> life.channel.basicAck(envelope.getDeliveryTag(), false);
                case REQUEUE -> life.channel.basicNack(envelope.getDeliveryTag(), false, true);
                case REJECT -> life.channel.basicReject(envelope.getDeliveryTag(), true);
                case DEAD_LETTER -> life.channel.basicReject(envelope.getDeliveryTag(), false);
            }
            return true;
        } catch (IOException | AlreadyClosedException e) {
            log.debug("Could not answer {}; its channel closed and the broker requeues it", this, e);
            return false;
        } finally {
            finish();
        }
    }

    /**
     * Acknowledges deliveries of one channel life in as few frames as it can: those below every delivery of the
     * life still unanswered in one acknowledgement with {@code multiple} set, any others one by one. Returns, for
     * each, whether the broker was told. Only the acks lane calls it (see {@link Held}).
     */
    static boolean[] ackAll(ChannelLife life, List<Delivery> deliveries) {
        boolean[] told = new boolean[deliveries.size()];
        deliveries.forEach(Delivery::claim);
        try {
            if (life.isEnded()) {
                return told;
            }
            deliveries.forEach(delivery -> life.held.release(delivery.envelope.getDeliveryTag()));
            long lowest = life.held.lowest();
            long highest = 0;
            int together = 0;
            for (Delivery delivery : deliveries) {
                long tag = delivery.envelope.getDeliveryTag();
                if (tag < lowest) {
                    highest = Math.max(highest, tag);
                    together++;
                }
            }
            if (together > 1) {
                life.channel.basicAck(highest, true);
                for (int i = 0; i < told.length; i++) {
                    told[i] = deliveries.get(i).envelope.getDeliveryTag() < lowest;
                }
            }
            for (int i = 0; i < told.length; i++) {
                if (!told[i]) {
                    life.channel.basicAck(deliveries.get(i).envelope.getDeliveryTag(), false);
                    told[i] = true;
                }
            }
        } catch (IOException | AlreadyClosedException e) {
            log.debug("Could not acknowledge {} deliveries; their channel closed and the broker requeues them",
                    deliveries.size(), e);
        } finally {
            deliveries.forEach(Delivery::finish);
        }
        return told;
    }

    private void finish() {
        life.held.release(envelope.getDeliveryTag());
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
