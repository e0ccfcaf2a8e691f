package io.github.retrytopology.runtime.consumer;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConfirmListener;
import com.rabbitmq.client.Consumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.Recoverable;
import com.rabbitmq.client.RecoveryListener;
import com.rabbitmq.client.ReturnListener;
import com.rabbitmq.client.ShutdownListener;
import com.rabbitmq.client.ShutdownSignalException;
import io.github.retrytopology.runtime.amqp091.Received;
import io.github.retrytopology.runtime.headers.RetryHeaders;

/**
 * The client's callbacks for one channel object. Deliveries come on the client's dispatch thread and are handled
 * there; everything else comes on its connection thread (confirms, returns, cancels, shutdowns) or its recovery
 * thread, and is handed over at once to the lane that owns it: nothing here waits.
 */
final class ClientCallbacks implements Consumer, ConfirmListener, ReturnListener, ShutdownListener, RecoveryListener {

    private final ChannelConsumer consumer;
    private final ConsumerContext context;
    private final Channel channel;
    private volatile long lastTag;

    ClientCallbacks(ChannelConsumer consumer, Channel channel) {
        this.consumer = consumer;
        this.context = consumer.context();
        this.channel = channel;
    }

    private Subscription subscription() {
        return consumer.subscription();
    }

    @Override
    public void handleDelivery(String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
        lastTag = Math.max(lastTag, envelope.getDeliveryTag());
        ChannelLife current = subscription().life();
        if (current.owns(channel, envelope.getDeliveryTag())) {
            consumer.deliver(current, envelope, properties, body);
        } // else a delivery of a closed channel: the broker has requeued it
    }

    @Override
    public void handleConsumeOk(String consumerTag) {
    }

    @Override
    public void handleCancelOk(String consumerTag) {
    }

    @Override
    public void handleCancel(String consumerTag) {
        context.control.execute(() -> {
            subscription().cancelledByBroker(consumerTag);
            consumer.review().run();
        });
    }

    @Override
    public void handleShutdownSignal(String consumerTag, ShutdownSignalException cause) {
    }

    @Override
    public void handleRecoverOk(String consumerTag) {
    }

    @Override
    public void handleAck(long sequence, boolean multiple) {
        ChannelLife current = subscription().life();
        if (current.channel == channel && !current.isEnded()) {
            current.republisher.acked(sequence, multiple);
        }
    }

    @Override
    public void handleNack(long sequence, boolean multiple) {
        ChannelLife current = subscription().life();
        if (current.channel == channel && !current.isEnded()) {
            current.republisher.nacked(sequence, multiple);
        }
    }

    @Override
    public void handleReturn(int replyCode, String replyText, String exchange, String routingKey,
            AMQP.BasicProperties properties, byte[] body) {
        ChannelLife current = subscription().life();
        if (current.channel == channel && !current.isEnded()) {
            RetryHeaders.of(Received.headers(properties.getHeaders())).publishId().ifPresent(sequence ->
                    current.republisher.returned(sequence, replyCode + " " + replyText));
        }
    }

    @Override
    public void shutdownCompleted(ShutdownSignalException cause) {
        ChannelLife ended = subscription().life();
        if (ended.channel != channel || ended.isEnded()) {
            return;
        }
        // From now on nothing of this life is answered or republished: the broker requeues what it held.
        ended.end();
        if (cause.isHardError() && channel instanceof Recoverable) {
            // Its connection was lost, and every delivery it held comes back: the consumers turn cautious, and
            // subscribe themselves once the client has recovered the connection.
            context.admission.turnCautious();
        }
        context.settlement.execute(ended.republisher::abandonAll);
        context.control.execute(() -> {
            subscription().ended(ended, cause);
            consumer.review().run();
        });
    }

    @Override
    public void handleRecovery(Recoverable recoverable) {
        // The client recovered the channel: a new life, whose first deliveries come once the control lane has
        // subscribed it again, after the whole connection has recovered.
        context.control.execute(() -> subscription().recovered(new ChannelLife(channel, this, lastTag, context)));
    }

    @Override
    public void handleRecoveryStarted(Recoverable recoverable) {
    }
}
