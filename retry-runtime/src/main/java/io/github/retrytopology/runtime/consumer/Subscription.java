package io.github.retrytopology.runtime.consumer;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.AlreadyClosedException;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ShutdownSignalException;
import com.rabbitmq.client.impl.recovery.AutorecoveringChannel;
import io.github.retrytopology.model.Service;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One consumer's subscription to its service's queue, and the channel life it is made on. The control lane owns
 * it: every method that changes it runs there, and says so with {@link ControlLane#checkOwned()}. Other threads
 * read only what is published for them: the current channel life, whether it is subscribed, and at which
 * prefetch. The tags are ours, so that a subscription is known before it is made.
 */
final class Subscription {

    private static final Logger log = LoggerFactory.getLogger(RetryingConsumer.class);

    private final ConsumerContext context;
    private final ControlLane control;
    private final Service service;
    private final int number;
    private final ChannelConsumer consumer;

    private @Nullable String tag;
    private int subscriptions;
    private boolean lost;
    private int failedSubscriptions;
    private long nextSubscription;

    /** The channel's current life; replaced on the control lane, read by every thread. */
    private volatile ChannelLife life;
    /** The subscription as other threads may read it: its tag and prefetch, or null and 0. */
    private volatile @Nullable String subscribedTag;
    private volatile int subscribedPrefetch;
    /** When the last delivery arrived, or the consumer subscribed; written by the delivering thread too. */
    private volatile long lastActivity;

    Subscription(ConsumerContext context, int number, ChannelConsumer consumer, ChannelLife life) {
        this.context = context;
        this.control = context.control;
        this.service = context.settings.service();
        this.number = number;
        this.consumer = consumer;
        this.life = life;
        this.nextSubscription = context.settings.ticker().nanos();
        this.lastActivity = nextSubscription;
    }

    // ---- Read from any thread ----

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

    /** A delivery arrived: the subscription is served. */
    void active() {
        lastActivity = context.settings.ticker().nanos();
    }

    /**
     * The tag of a subscription with a prefetch of 1, when the consumers' configured prefetch is larger: the
     * cautious subscription, which goes once the consumers open. Null if there is none.
     */
    @Nullable String cautiousTag() {
        return subscribedPrefetch == 1 && context.settings.prefetch() > 1 ? subscribedTag : null;
    }

    // ---- On the control lane ----

    /**
     * Subscribes at this prefetch if {@code wanted} and not subscribed, once its back-off has passed and the
     * connection is not being recovered; cancels the subscription if not wanted. Returns when it wants to be
     * steered again, in the ticker's nanoseconds, or {@link Long#MAX_VALUE} if only an event can change it.
     */
    long steer(boolean wanted, int wantedPrefetch, long now) {
        control.checkOwned();
        if (tag != null && !wanted) {
            cancel();
        }
        if (!wanted || tag != null || context.isRecovering()) {
            return Long.MAX_VALUE; // recovery steers it again once the connection is back
        }
        if (now - nextSubscription < 0) {
            return nextSubscription;
        }
        subscribe(wantedPrefetch, now);
        return tag == null && context.connection.isOpen() ? nextSubscription : Long.MAX_VALUE;
    }

    /** Subscribes the first consumer as the consumers start: its failure fails the start. */
    void subscribeOrThrow(int wantedPrefetch) throws IOException {
        control.checkOwned();
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
                current = consumer.open();
                life = current;
            }
            consume(current, next, wantedPrefetch);
            subscribed(next, wantedPrefetch);
            failedSubscriptions = 0;
            if (lost) {
                lost = false;
                log.info("Consumer {} of {} is subscribed again", number, service.queue());
                context.settings.listeners().tell(listener -> listener.onConsumerRestored(service));
            }
        } catch (IOException | RuntimeException e) {
            failedSubscriptions++;
            long pause = RetryingConsumer.backOff(failedSubscriptions);
            nextSubscription = now + pause;
            String reason = "could not subscribe to " + service.queue() + ": " + RetryingConsumer.describe(e);
            if (!lost) {
                lost = true;
                log.warn("Consumer {} of {} {}; trying again", number, service.queue(), reason);
                context.settings.listeners().tell(listener -> listener.onConsumerLost(service, reason));
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
        lastActivity = context.settings.ticker().nanos();
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
        control.checkOwned();
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

    /** The delivering thread cancelled the cautious subscription {@code cancelled} (see {@link #cancelCautious}). */
    void cautiousCancelled(String cancelled) {
        control.checkOwned();
        if (cancelled.equals(tag)) {
            unsubscribed();
        }
    }

    /** The broker cancelled a subscription: its queue was deleted, or its leader moved. */
    void cancelledByBroker(String cancelled) {
        control.checkOwned();
        if (!cancelled.equals(tag)) {
            return;
        }
        unsubscribed();
        // Not at once: RabbitMQ 3.10 closes the whole connection on a consume from a quorum queue still being deleted.
        nextSubscription = context.settings.ticker().nanos() + RetryingConsumer.backOff(1);
        if (!lost) {
            lost = true;
            String reason = "the broker cancelled it (was " + service.queue() + " deleted, or did its leader move?)";
            log.warn("Consumer {} of {}: {}; subscribing again", number, service.queue(), reason);
            context.settings.listeners().tell(listener -> listener.onConsumerLost(service, reason));
        }
    }

    /** A channel life ended: its subscription with it. */
    void ended(ChannelLife ended, ShutdownSignalException cause) {
        control.checkOwned();
        if (ended != life || tag == null) {
            return;
        }
        unsubscribed();
        if (!context.isStopped() && !lost) {
            lost = true;
            String reason = "its " + (cause.isHardError() ? "connection" : "channel") + " closed: " + cause.getMessage();
            log.warn("Consumer {} of {} lost: {}", number, service.queue(), reason);
            context.settings.listeners().tell(listener -> listener.onConsumerLost(service, reason));
        }
    }

    /** The client recovered the channel: a new life, subscribed again once the whole connection has recovered. */
    void recovered(ChannelLife recovered) {
        control.checkOwned();
        life = recovered;
    }

    /**
     * Whether the consumer is subscribed, holds no delivery, and has received none for {@code idle} nanoseconds:
     * a subscription the broker no longer serves, if its queue holds ready messages meanwhile.
     */
    boolean idleSince(long now, long idle) {
        control.checkOwned();
        return tag != null && now - lastActivity >= idle && life.settlements.isEmpty();
    }

    /** How many messages of its queue are ready, as the broker says; asked on the consumer's own channel. */
    long readyMessages() throws IOException {
        control.checkOwned();
        return life.channel.queueDeclarePassive(service.queue()).getMessageCount();
    }

    /**
     * Starts afresh, on a new channel, a subscription that the broker no longer serves and did not cancel:
     * RabbitMQ 3.10 neither cancels nor serves a consumer of a quorum queue that is deleted and declared again at
     * once, and the new queue hands it deliveries that never arrive; only closing the channel gives them back.
     * The consumer holds nothing, so nothing else goes back with them.
     */
    void resubscribe(String reason) {
        control.checkOwned();
        if (tag == null || lost) {
            return;
        }
        lost = true;
        log.warn("Consumer {} of {} {}; subscribing again on a new channel", number, service.queue(), reason);
        context.settings.listeners().tell(listener -> listener.onConsumerLost(service, reason));
        ChannelConsumer.closeQuietly(life.channel);
    }

    // ---- On the delivering thread ----

    /**
     * Cancels the cautious subscription from the thread that holds its one delivery, and does not wait for the
     * broker's answer. Holding that delivery unanswered, the subscription has nothing on its way, so the cancel
     * returns nothing to the queue, provided it reaches the broker before the delivery's answer: both go on the
     * one channel, the cancel first, whichever thread answers. The control lane then records it, and subscribes
     * every consumer at its full prefetch.
     */
    static void cancelCautious(ChannelLife current, String cautious) {
        try {
            subscriber(current.channel).asyncRpc(
                    new AMQP.Basic.Cancel.Builder().consumerTag(cautious).nowait(true).build());
        } catch (IOException | AlreadyClosedException e) {
            log.debug("Could not cancel the cautious consumer {}", cautious, e);
        }
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
}
