package io.github.retrytopology.runtime.consumer;

import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.Tier;
import io.github.retrytopology.model.decision.Decision;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Hears what happens to each delivery, and to the consumers, for metrics and alerts; every method does nothing
 * unless overridden. Retries and parks are reported once the broker has confirmed the republish, so each counts
 * a message that really moved. Methods are called on the consumer's own threads, never on the client's
 * connection thread: {@link #onSuccess}, {@link #onRequeued} and {@link #onRedelivery} on the handler's thread,
 * the others on the thread that settles confirms, where a slow listener delays the acknowledgements of this
 * consumer's retries and parks (and nothing else). An exception they throw is logged and ignored.
 */
public interface RetryListener {

    /** The handler succeeded and the message was acknowledged. */
    default void onSuccess(DeliveryContext context) {
    }

    /** The message failed and now waits in {@code tier}, a wait queue. */
    default void onRetry(DeliveryContext context, Throwable failure, Tier tier) {
    }

    /**
     * The message failed and went back to its queue, rejected, and the broker holds it back for
     * {@code requeue.delay()} before delivering it again: the broker's delayed retry, on RabbitMQ 4.3.1 and later.
     * Unlike {@link #onRetry}, nothing confirms this; the broker takes a reject as it takes an acknowledgement.
     */
    default void onRequeued(DeliveryContext context, Throwable failure, Decision.Requeue requeue) {
    }

    /**
     * The message is in the parking lot.
     *
     * @param failure what the handler threw, or null if no handler ran (no handler takes its routing key)
     */
    default void onPark(DeliveryContext context, @Nullable Throwable failure, Decision.Park park) {
    }

    /**
     * The broker confirmed a retry or park, {@code latency} after its first send: {@link #onRetry} or
     * {@link #onPark} follows once the delivery is acknowledged.
     *
     * @param queue the tier queue or parking lot it went to
     */
    default void onRepublished(DeliveryContext context, String queue, Duration latency) {
    }

    /**
     * A retry or park could not be published: the broker refused it (its queue is full, say) or returned it
     * (the queue is missing), or did not confirm it in time. The original message stays unacknowledged and the
     * republish is tried again after a back-off, without running the handler again: nothing is lost, and the
     * consumer slows down rather than spin while the broker refuses.
     */
    default void onRepublishFailed(DeliveryContext context, String reason) {
    }

    /**
     * The message was delivered before, and that delivery ended without an answer: a consumer crashed or lost
     * its connection while handling it, or was stopped. Reported on quorum queues, whose {@code x-delivery-count}
     * says so; a classic queue's redelivered flag alone proves nothing (after a broker restart every recovered
     * message carries it) and is not reported. Nor is it reported where the broker delays retries: RabbitMQ 4.3
     * counts the reject that retries a failure as it counts a crash (each raises {@code x-delivery-count} and
     * {@code x-acquired-count}, sets the redelivered flag and is delayed alike), so nothing on a delivery tells
     * one from the other there.
     *
     * @param deliveryCount how many earlier deliveries ended so, as the broker counts them
     */
    default void onRedelivery(DeliveryContext context, int deliveryCount) {
    }

    /**
     * One of the service's consumers stopped receiving deliveries without being asked to: the broker cancelled
     * it (its queue was deleted, or a quorum queue's leader moved), its channel closed on an error, or its
     * connection was lost. It subscribes again with a back-off; {@link #onConsumerRestored} follows when it has.
     *
     * @param reason what happened, in a sentence
     */
    default void onConsumerLost(Service service, String reason) {
    }

    /** A consumer reported by {@link #onConsumerLost} receives deliveries again. */
    default void onConsumerRestored(Service service) {
    }
}
