package io.github.retrytopology.runtime.consumer;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Consumer;

/**
 * One life of a consumer's channel: from its opening, or its recovery, until it closes. Each delivery, and each
 * republish, belongs to the life it began in; once the life ends, the broker has requeued what it held, and
 * nothing of it is answered or republished on whatever channel takes its place.
 */
final class ChannelLife {

    /** The frame size when the connection sets none: RabbitMQ's default. */
    private static final int FRAME_MAX_WHEN_UNLIMITED = 131_072;
    /**
     * Room kept in a frame beside the headers of a republish: for the other properties, and for the headers the
     * broker adds when a tier dead-letters the message back ({@code x-death}, {@code x-first-death-*}), which a
     * client cannot read past the frame size.
     */
    private static final int OTHER_PROPERTIES = 4_096;

    final Channel channel;
    /** The client's callbacks of the channel, which a subscription of this life hands its deliveries to. */
    final Consumer callbacks;
    /** The answers to its deliveries, and those not answered yet. */
    final Settlements settlements;
    final Republisher republisher;
    /** The most bytes the headers of a republish may take, to fit the connection's frame on its way back too. */
    final int maxHeaderBytes;
    /** Delivery tags at or below this belong to earlier lives of the same recovering channel. */
    final long tagFloor;
    private volatile boolean ended;

    ChannelLife(Channel channel, Consumer callbacks, long tagFloor, ConsumerContext context) {
        this.channel = channel;
        this.callbacks = callbacks;
        this.tagFloor = tagFloor;
        int frameMax = channel.getConnection().getFrameMax();
        this.maxHeaderBytes = (frameMax == 0 ? FRAME_MAX_WHEN_UNLIMITED : frameMax) - OTHER_PROPERTIES;
        this.settlements = new Settlements(channel, context.settlement);
        this.republisher = new Republisher(this, context);
    }

    boolean isEnded() {
        return ended;
    }

    /** The channel closed: what the life holds is the broker's again. */
    void end() {
        ended = true;
    }

    /** Whether a delivery of this channel, with this tag, is one of this life's. */
    boolean owns(Channel from, long deliveryTag) {
        return !ended && from == channel && deliveryTag > tagFloor;
    }
}
