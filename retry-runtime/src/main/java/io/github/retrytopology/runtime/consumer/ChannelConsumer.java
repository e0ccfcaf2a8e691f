package io.github.retrytopology.runtime.consumer;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.AlreadyClosedException;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConfirmListener;
import com.rabbitmq.client.Consumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.Recoverable;
import com.rabbitmq.client.RecoveryListener;
import com.rabbitmq.client.ReturnListener;
import com.rabbitmq.client.ShutdownListener;
import com.rabbitmq.client.ShutdownSignalException;
import com.rabbitmq.client.impl.recovery.AutorecoveringChannel;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.runtime.headers.RetryHeaders;
import java.io.IOException;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One of a service's consumers: a channel, the subscription on it, and the deliveries that come through it.
 *
 * <p>Who does what:
 * <ul>
 *   <li>the subscription (subscribing, cancelling, opening a new channel after a channel error, asking the broker
 *       about its queue) is the control lane's: only it writes the subscription, and it may wait on the broker;
 *   <li>deliveries are handled on the thread the client dispatches them on, one at a time, in order;
 *   <li>the client's connection thread only hands over confirms, returns, cancels and shutdowns;
 *   <li>what follows a confirm runs on the acks lane (see {@link Republisher}).
 * </ul>
 */
final class ChannelConsumer {

    private static final Logger log = LoggerFactory.getLogger(RetryingConsumer.class);

    private final ConsumerContext context;
    private final ConsumerSettings settings;
    private final Service service;
    private final int number;
    private final DeliveryProcessor processor;
    private final HandlerSlot slot = new HandlerSlot();
    /** Brings every consumer of the service in line with the admission; on the control lane. */
    private final Runnable review;
    /** The channel's current life; replaced on the control lane. */
    private volatile ChannelLife life;

    // The subscription: the control lane's alone. The tags are ours, so that a subscription is known before it is made.
    private String tag;
    private int subscriptions;
    private boolean lost;
    private int failedSubscriptions;
    private long nextSubscription;
    /** The subscription as other threads may read it: its tag and prefetch, or null and 0. */
    private volatile String subscribedTag;
    private volatile int subscribedPrefetch;

    /** When the last delivery arrived, or the consumer subscribed. */
    private volatile long lastActivity;
    /** Deliveries in a row that failed outside their handler, for the back-off before the next goes back. */
    private volatile int failuresInARow;

    ChannelConsumer(ConsumerContext context, int number, Runnable review) throws IOException {
        this.context = context;
        this.review = review;
        this.settings = context.settings;
        this.service = settings.service();
        this.number = number;
        this.processor = new DeliveryProcessor(context);
        this.life = open();
        this.nextSubscription = settings.ticker().nanos();
        this.lastActivity = nextSubscription;
    }

    /** Opens a channel in confirm mode, with this consumer's listeners, as a new life. */
    private ChannelLife open() throws IOException {
        Channel channel = context.connection.createChannel();
        if (channel == null) {
            throw new IOException("the connection has no channel left to open");
        }
        try {
            channel.confirmSelect();
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
        Callbacks callbacks = new Callbacks(channel);
        channel.addConfirmListener(callbacks);
        channel.addReturnListener(callbacks);
        channel.addShutdownListener(callbacks);
        if (channel instanceof Recoverable recoverable) {
            recoverable.addRecoveryListener(callbacks);
        }
        return new ChannelLife(channel, callbacks, 0, context);
    }

    ChannelLife life() {
        return life;
    }

    boolean isSubscribed() {
        return subscribedTag != null;
    }

    /** The prefetch it is subscribed with; 0 if it is not. */
    int prefetch() {
        return subscribedPrefetch;
    }

    // ---- The subscription: on the control lane ----

    /**
     * Subscribes at this prefetch if {@code wanted} and not subscribed, once its back-off has passed and the
     * connection is not being recovered; cancels the subscription if not wanted. A subscription of another prefetch
     * is left to the handler's thread, which cancels it only when nothing can be on its way (see {@link Admission}).
     */
    void steer(boolean wanted, int wantedPrefetch, long now) {
        if (tag != null && !wanted) {
            cancel();
        }
        if (wanted && tag == null && now - nextSubscription >= 0 && !context.isRecovering()) {
            subscribe(wantedPrefetch, now);
        }
    }

    /** Subscribes the first consumer as the consumers start: its failure fails the start. */
    void subscribeOrThrow(int wantedPrefetch) throws IOException {
        String next = nextTag();
        consume(life, next, wantedPrefetch);
        subscribed(next, wantedPrefetch);
    }

    private void subscribe(int wantedPrefetch, long now) {
        String next = nextTag();
        try {
            ChannelLife current = life;
            if (current.isEnded()) {
                if (!context.connection.isOpen()) {
                    return; // lost with its connection: the client's recovery brings the channel back, if it can
                }
                current = open();
                life = current;
            }
            consume(current, next, wantedPrefetch);
            subscribed(next, wantedPrefetch);
            failedSubscriptions = 0;
            if (lost) {
                lost = false;
                log.info("Consumer {} of {} is subscribed again", number, service.queue());
                settings.listeners().tell(listener -> listener.onConsumerRestored(service));
            }
        } catch (IOException | RuntimeException e) {
            failedSubscriptions++;
            long pause = RetryingConsumer.backOff(failedSubscriptions);
            nextSubscription = now + pause;
            String reason = "could not subscribe to " + service.queue() + ": " + RetryingConsumer.describe(e);
            if (!lost) {
                lost = true;
                log.warn("Consumer {} of {} {}; trying again", number, service.queue(), reason);
                settings.listeners().tell(listener -> listener.onConsumerLost(service, reason));
            } else {
                log.debug("Consumer {} of {} {}; trying again in {} ms", number, service.queue(), reason,
                        pause / 1_000_000);
            }
        }
    }

    private String nextTag() {
        return "retry-" + service.name() + "-" + number + "-" + ++subscriptions;
    }

    private void consume(ChannelLife current, String next, int wantedPrefetch) throws IOException {
        tag = next;
        current.channel.basicQos(wantedPrefetch);
        try {
            subscriber(current.channel).basicConsume(service.queue(), false, next, false, false, null,
                    current.callbacks);
        } catch (IOException | RuntimeException e) {
            tag = null;
            throw e;
        }
    }

    private void subscribed(String next, int wantedPrefetch) {
        tag = next;
        subscribedPrefetch = wantedPrefetch;
        subscribedTag = next;
        lastActivity = settings.ticker().nanos();
    }

    private void unsubscribed() {
        tag = null;
        subscribedTag = null;
        subscribedPrefetch = 0;
    }

    /**
     * Cancels the subscription, if any: no more deliveries come, those held stay held. A delivery on its way when
     * the broker cancels goes back to the queue, counted as a delivery: call it when there is none.
     */
    void cancel() {
        String cancelled = tag;
        if (cancelled == null) {
            return;
        }
        unsubscribed();
        try {
            life.channel.basicCancel(cancelled);
        } catch (IOException | AlreadyClosedException e) {
            log.debug("Could not cancel consumer {} of {}", number, service.queue(), e);
        }
    }

    /** The broker cancelled a subscription: its queue was deleted, or its leader moved. */
    private void cancelledByBroker(String cancelled) {
        if (!cancelled.equals(tag)) {
            return;
        }
        unsubscribed();
        // Not at once: RabbitMQ 3.10 closes the whole connection on a consume from a quorum queue still being deleted.
        nextSubscription = settings.ticker().nanos() + RetryingConsumer.backOff(1);
        if (!lost) {
            lost = true;
            String reason = "the broker cancelled it (was " + service.queue() + " deleted, or did its leader move?)";
            log.warn("Consumer {} of {}: {}; subscribing again", number, service.queue(), reason);
            settings.listeners().tell(listener -> listener.onConsumerLost(service, reason));
        }
    }

    /** A channel life ended: its subscription with it. */
    private void ended(ChannelLife ended, ShutdownSignalException cause) {
        if (ended != life || tag == null) {
            return;
        }
        unsubscribed();
        if (!context.isStopped() && !lost) {
            lost = true;
            String reason = "its " + (cause.isHardError() ? "connection" : "channel") + " closed: " + cause.getMessage();
            log.warn("Consumer {} of {} lost: {}", number, service.queue(), reason);
            settings.listeners().tell(listener -> listener.onConsumerLost(service, reason));
        }
    }

    /**
     * Whether the consumer is subscribed, holds no delivery, and has received none for {@code idle} nanoseconds:
     * a subscription the broker no longer serves, if its queue holds ready messages meanwhile.
     */
    boolean idleSince(long now, long idle) {
        return tag != null && now - lastActivity >= idle && life.held.isEmpty();
    }

    /** How many messages of its queue are ready, as the broker says; asked on the consumer's own channel. */
    long readyMessages() throws IOException {
        return life.channel.queueDeclarePassive(service.queue()).getMessageCount();
    }

    /**
     * Starts afresh, on a new channel, a subscription that the broker no longer serves and did not cancel:
     * RabbitMQ 3.10 neither cancels nor serves a consumer of a quorum queue that is deleted and declared again at
     * once, and the new queue hands it deliveries that never arrive; only closing the channel gives them back.
     * The consumer holds nothing, so nothing else goes back with them.
     */
    void resubscribe(String reason) {
        if (tag == null || lost) {
            return;
        }
        lost = true;
        log.warn("Consumer {} of {} {}; subscribing again on a new channel", number, service.queue(), reason);
        settings.listeners().tell(listener -> listener.onConsumerLost(service, reason));
        closeQuietly(life.channel);
    }

    /** The cautious consumer opens: its subscription of one goes, to come back at the full prefetch. */
    private void cancelCautious() {
        if (subscribedPrefetch == 1 && settings.prefetch() > 1) {
            cancel();
        }
    }

    // ---- Deliveries: on the thread the client dispatches them on ----

    private void deliver(ChannelLife current, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
        lastActivity = settings.ticker().nanos();
        if (context.isStopped()) {
            giveBackWhenUnsubscribed(current, envelope);
            return;
        }
        Delivery delivery = processor.arrived(current, envelope, properties, body);
        slot.enter();
        try {
            if (number == 1 && context.admission.opensWith(delivery)) {
                openFromCautious();
            }
            processor.process(delivery);
            failuresInARow = 0;
        } catch (RuntimeException | Error e) {
            failedOutsideHandler(delivery, e);
        } finally {
            slot.leave();
        }
    }

    /** Returns a delivery that arrived while the consumers stop, once none of them can be handed it again. */
    private void giveBackWhenUnsubscribed(ChannelLife current, Envelope envelope) {
        try {
            context.awaitUnsubscribed();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            current.channel.basicNack(envelope.getDeliveryTag(), false, true);
        } catch (IOException | AlreadyClosedException e) {
            log.debug("Could not requeue a delivery that arrived while stopping", e);
        }
    }

    /**
     * This consumer was the cautious one, with a prefetch of 1: holding this delivery, it has nothing on its way,
     * and its cancellation returns nothing. The control lane cancels it now, and then subscribes every consumer
     * at its full prefetch.
     */
    private void openFromCautious() {
        try {
            context.control.await(this::cancelCautious);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        context.control.execute(review);
    }

    /**
     * A delivery that failed outside its handler goes back to its queue as a failed delivery, which every version
     * of RabbitMQ counts toward a quorum queue's delivery limit, after a back-off that grows while such failures
     * follow each other: it neither spins, nor comes back for ever.
     */
    private void failedOutsideHandler(Delivery delivery, Throwable e) {
        int inARow = ++failuresInARow;
        long pause = RetryingConsumer.backOff(inARow);
        log.error("{} failed outside its handler; it goes back to its queue as a failed delivery in {} ms", delivery,
                pause / 1_000_000, e);
        context.acks.schedule(() -> {
            try {
                delivery.reject();
            } catch (IllegalStateException answered) {
                log.error("{}", answered.getMessage());
            }
        }, pause);
    }

    // ---- Stopping ----

    /** Interrupts the handler that still runs after a stop's timeout: an {@link InterruptedException} requeues it. */
    void interruptHandler() {
        slot.interrupt();
    }

    void close() {
        closeQuietly(life.channel);
    }

    /**
     * The channel a subscription is made on: the client's own channel under a recovering one. A subscription made
     * through a recovering channel is recorded by the client, which subscribes it again, with its old prefetch, when
     * it recovers the connection; the consumer could then hold deliveries it no longer answers, which go back to the
     * queue, one more delivery counted each, only when that channel closes. Made under it, a subscription lives and
     * ends with one connection, and only this consumer subscribes again.
     */
    private static Channel subscriber(Channel channel) {
        return channel instanceof AutorecoveringChannel recovering ? recovering.getDelegate() : channel;
    }

    private static void closeQuietly(Channel channel) {
        try {
            if (channel.isOpen()) {
                channel.close();
            }
        } catch (IOException | TimeoutException | AlreadyClosedException e) {
            log.debug("Could not close channel {}", channel.getChannelNumber(), e);
        }
    }

    /** The client's callbacks for one channel object; they hand everything over and return at once. */
    final class Callbacks implements Consumer, ConfirmListener, ReturnListener, ShutdownListener, RecoveryListener {

        private final Channel channel;
        private volatile long lastTag;

        Callbacks(Channel channel) {
            this.channel = channel;
        }

        @Override
        public void handleDelivery(String consumerTag, Envelope envelope, AMQP.BasicProperties properties,
                byte[] body) {
            lastTag = Math.max(lastTag, envelope.getDeliveryTag());
            ChannelLife current = life;
            if (current.owns(channel, envelope.getDeliveryTag())) {
                deliver(current, envelope, properties, body);
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
                cancelledByBroker(consumerTag);
                review.run();
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
            ChannelLife current = life;
            if (current.channel == channel && !current.isEnded()) {
                current.republisher.acked(sequence, multiple);
            }
        }

        @Override
        public void handleNack(long sequence, boolean multiple) {
            ChannelLife current = life;
            if (current.channel == channel && !current.isEnded()) {
                current.republisher.nacked(sequence, multiple);
            }
        }

        @Override
        public void handleReturn(int replyCode, String replyText, String exchange, String routingKey,
                AMQP.BasicProperties properties, byte[] body) {
            ChannelLife current = life;
            if (current.channel == channel && !current.isEnded()) {
                RetryHeaders.of(properties.getHeaders()).publishId().ifPresent(sequence ->
                        current.republisher.returned(sequence, replyCode + " " + replyText));
            }
        }

        @Override
        public void shutdownCompleted(ShutdownSignalException cause) {
            ChannelLife ended = life;
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
            context.acks.execute(ended.republisher::abandonAll);
            context.control.execute(() -> {
                ended(ended, cause);
                review.run();
            });
        }

        @Override
        public void handleRecovery(Recoverable recoverable) {
            // The client recovered the channel: a new life, whose first deliveries come once the control lane has
            // subscribed it again, after the whole connection has recovered.
            context.control.execute(() -> life = new ChannelLife(channel, this, lastTag, context));
        }

        @Override
        public void handleRecoveryStarted(Recoverable recoverable) {
        }
    }
}
