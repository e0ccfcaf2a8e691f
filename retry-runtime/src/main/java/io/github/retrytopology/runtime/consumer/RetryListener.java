package io.github.retrytopology.runtime.consumer;

import io.github.retrytopology.model.Tier;
import io.github.retrytopology.model.decision.Decision;

/**
 * Hears what happens to each delivery, for metrics and alerts; every method does nothing unless overridden.
 * Retries and parks are reported once the broker has confirmed the republish, so each counts a message that
 * really moved. Methods are called on the client's threads and should return quickly; an exception they throw
 * is logged and ignored.
 */
public interface RetryListener {

    /** The handler succeeded and the message was acknowledged. */
    default void onSuccess(DeliveryContext context) {
    }

    /** The message failed and now waits in {@code tier}. */
    default void onRetry(DeliveryContext context, Throwable failure, Tier tier) {
    }

    /**
     * The message is in the parking lot.
     *
     * @param failure what the handler threw, or null if no handler ran (no handler takes its routing key)
     */
    default void onPark(DeliveryContext context, Throwable failure, Decision.Park park) {
    }

    /**
     * A retry or park could not be published: the broker refused or returned it, or did not confirm it in
     * time. The original message was requeued and will be delivered again: nothing is lost, but the tier queue
     * or parking lot may be missing.
     */
    default void onRepublishFailed(DeliveryContext context, String reason) {
    }

    /**
     * The message was delivered before, and that delivery ended without an answer: a consumer crashed or lost
     * its connection while handling it, or its republish failed.
     *
     * @param deliveryCount how many earlier deliveries of this attempt ended so, as far as the broker says
     */
    default void onRedelivery(DeliveryContext context, int deliveryCount) {
    }
}
