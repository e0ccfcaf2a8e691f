package io.github.retrytopology.runtime.consumer;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.AlreadyClosedException;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.Recoverable;
import io.github.retrytopology.model.decision.Decision;
import java.io.IOException;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One of a service's consumers: a channel, the subscription on it, and the deliveries that come through it. Each
 * part has one thread, and a type:
 * <ul>
 *   <li>the {@link Subscription} is the control lane's;
 *   <li>deliveries are handled here, on the thread the client dispatches them on, one at a time, in order, by
 *       the {@link DeliveryProcessor};
 *   <li>the client's connection thread runs only the {@link ClientCallbacks}, which hand everything over;
 *   <li>what follows a confirm runs on the settlement lane (see {@link Republisher} and {@link Settlements}).
 * </ul>
 */
final class ChannelConsumer {

    private static final Logger log = LoggerFactory.getLogger(RetryingConsumer.class);

    private final ConsumerContext context;
    private final int number;
    private final DeliveryProcessor processor;
    private final HandlerSlot slot = new HandlerSlot();
    /** Brings every consumer of the service in line with the admission; on the control lane. */
    private final Runnable review;
    private final Subscription subscription;

    /** Deliveries in a row that failed outside their handler, for the back-off before the next goes back. */
    private volatile int failuresInARow;

    ChannelConsumer(ConsumerContext context, int number, Runnable review) throws IOException {
        this.context = context;
        this.review = review;
        this.number = number;
        this.processor = new DeliveryProcessor(context);
        this.subscription = new Subscription(context, number, this, open());
    }

    /** Opens a channel in confirm mode, with this consumer's listeners, as a new life. */
    ChannelLife open() throws IOException {
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
        ClientCallbacks callbacks = new ClientCallbacks(this, channel);
        channel.addConfirmListener(callbacks);
        channel.addReturnListener(callbacks);
        channel.addShutdownListener(callbacks);
        if (channel instanceof Recoverable recoverable) {
            recoverable.addRecoveryListener(callbacks);
        }
        return new ChannelLife(channel, callbacks, 0, context);
    }

    Subscription subscription() {
        return subscription;
    }

    ConsumerContext context() {
        return context;
    }

    Runnable review() {
        return review;
    }

    // ---- Deliveries: on the thread the client dispatches them on ----

    void deliver(ChannelLife current, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
        subscription.active();
        if (context.isStopped()) {
            giveBackWhenUnsubscribed(current, envelope);
            return;
        }
        Delivery delivery = processor.arrived(current, envelope, properties, body);
        slot.enter();
        try {
            if (number == 1 && context.admission.opensWith(delivery)) {
                openFromCautious(current);
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
     * This consumer was the cautious one, with a prefetch of 1: holding this delivery, it has nothing on its way.
     * Its subscription is cancelled before the delivery is answered, without waiting for the broker; the control
     * lane then subscribes every consumer at its full prefetch.
     */
    private void openFromCautious(ChannelLife current) {
        String cautious = subscription.cautiousTag();
        if (cautious != null) {
            Subscription.cancelCautious(current, cautious);
        }
        context.control.execute(() -> {
            if (cautious != null) {
                subscription.cautiousCancelled(cautious);
            }
            review.run();
        });
    }

    /**
     * A delivery that failed outside its handler goes back to its queue as the model decides, after a back-off
     * that grows while such failures follow each other: it neither spins, nor comes back for ever.
     */
    private void failedOutsideHandler(Delivery delivery, Throwable e) {
        Decision.Requeue requeue = context.settings.policy().failedOutsideHandler(++failuresInARow);
        log.error("{} failed outside its handler; it goes back to its queue as a failed delivery in {} ms", delivery,
                requeue.delay().toMillis(), e);
        context.settlement.schedule(() -> {
            try {
                delivery.reject();
            } catch (IllegalStateException answered) {
                log.error("{}", answered.getMessage());
            }
        }, requeue.delay().toNanos());
    }

    // ---- Stopping ----

    /** Interrupts the handler that still runs after a stop's timeout: an {@link InterruptedException} requeues it. */
    void interruptHandler() {
        slot.interrupt();
    }

    void close() {
        closeQuietly(subscription.life().channel);
    }

    static void closeQuietly(Channel channel) {
        try {
            if (channel.isOpen()) {
                channel.close();
            }
        } catch (IOException | TimeoutException | AlreadyClosedException e) {
            log.debug("Could not close channel {}", channel.getChannelNumber(), e);
        }
    }
}
