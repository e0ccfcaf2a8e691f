package io.github.retrytopology.runtime.consumer;

import com.rabbitmq.client.AlreadyClosedException;
import com.rabbitmq.client.Channel;
import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The answers to one channel life's deliveries, and the deliveries not answered yet. A delivery is answered on
 * its own from whichever thread decides it (the handler's, or the settlement lane); an acknowledgement with
 * {@code multiple} set, which covers every unanswered delivery of the channel at or below its tag, goes out only
 * from the settlement lane, and only below the lowest delivery still held, so that it never covers one that
 * another thread answers on its own later, which the broker would refuse. Both rules live here, in one type.
 */
final class Settlements {

    private static final Logger log = LoggerFactory.getLogger(RetryingConsumer.class);

    /** How a delivery is answered on its own. */
    enum Answer {
        /** Done with. */
        ACK,
        /** Back to its queue as it was, not counted as a failure by RabbitMQ 4.3: a nack with requeue. */
        REQUEUE,
        /** Back to its queue as a failed delivery, which every version counts: a reject with requeue. */
        REJECT,
        /** To its queue's dead-letter target as it arrived: a reject without requeue. */
        DEAD_LETTER
    }

    private final Channel channel;
    private final SettlementLane lane;
    /** Deliveries not answered yet, which the broker counts against the consumer's prefetch. */
    private final Held held = new Held();

    Settlements(Channel channel, SettlementLane lane) {
        this.channel = channel;
        this.lane = lane;
    }

    /** A delivery arrived; deliveries arrive in the order of their tags. */
    void arrived(long tag) {
        held.add(tag);
    }

    /** Lets a delivery go: it has been answered, or its channel closed and the broker requeued it. */
    void release(long tag) {
        held.release(tag);
    }

    /** Whether no delivery waits for its answer. */
    boolean isEmpty() {
        return held.isEmpty();
    }

    /** Answers one delivery; returns whether the broker was told. From any thread. */
    boolean answer(long tag, Answer answer) {
        try {
            switch (answer) {
                case ACK -> channel.basicAck(tag, false);
                case REQUEUE -> channel.basicNack(tag, false, true);
                case REJECT -> channel.basicReject(tag, true);
                case DEAD_LETTER -> channel.basicReject(tag, false);
            }
            return true;
        } catch (IOException | AlreadyClosedException e) {
            log.debug("Could not answer delivery {} on channel {}; it closed and the broker requeues it", tag,
                    channel.getChannelNumber(), e);
            return false;
        }
    }

    /**
     * Acknowledges deliveries in as few frames as it can: those below every delivery still held in one
     * acknowledgement with {@code multiple} set, any others one by one. Returns, for each, whether the broker was
     * told. On the settlement lane only.
     */
    boolean[] acknowledgeTogether(List<Long> tags) {
        lane.checkOwned();
        boolean[] told = new boolean[tags.size()];
        tags.forEach(held::release);
        long lowest = held.lowest();
        long highest = 0;
        int together = 0;
        for (long tag : tags) {
            if (tag < lowest) {
                highest = Math.max(highest, tag);
                together++;
            }
        }
        try {
            if (together > 1) {
                channel.basicAck(highest, true);
                for (int i = 0; i < told.length; i++) {
                    told[i] = tags.get(i) < lowest;
                }
            }
            for (int i = 0; i < told.length; i++) {
                if (!told[i]) {
                    channel.basicAck(tags.get(i), false);
                    told[i] = true;
                }
            }
        } catch (IOException | AlreadyClosedException e) {
            log.debug("Could not acknowledge {} deliveries; their channel closed and the broker requeues them",
                    tags.size(), e);
        }
        return told;
    }
}
