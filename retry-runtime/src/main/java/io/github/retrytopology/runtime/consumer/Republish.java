package io.github.retrytopology.runtime.consumer;

import io.github.retrytopology.model.decision.Decision;
import io.github.retrytopology.runtime.amqp091.Republishing;
import org.jspecify.annotations.Nullable;

/**
 * A failed delivery on its way to a tier queue or the parking lot. It may take several sends: one the broker
 * refuses or returns is sent again after a back-off, and one it does not confirm in time is sent again beside
 * the first. The first send the broker confirms settles it, and the delivery is then acknowledged; the original
 * stays unacknowledged until then, so that a refusing broker neither loses the message nor counts a delivery
 * against it.
 */
final class Republish {

    final Delivery delivery;
    final Decision decision;
    final @Nullable Throwable failure;
    final String queue;
    final Republishing.Outgoing outgoing;
    /** When it was first sent, in the monotonic clock's nanoseconds. */
    final long startedAt;
    private int outstanding;
    private int refusals;
    private boolean settled;
    private boolean waiting;

    /** @param outgoing what every send carries, stamped with its publish sequence number */
    Republish(Delivery delivery, Decision decision, @Nullable Throwable failure, String queue, Republishing.Outgoing outgoing,
            long startedAt) {
        this.delivery = delivery;
        this.decision = decision;
        this.failure = failure;
        this.queue = queue;
        this.outgoing = outgoing;
        this.startedAt = startedAt;
    }

    /** Records a send; returns false if the republish has settled and needs no more. */
    synchronized boolean sending() {
        if (settled) {
            return false;
        }
        outstanding++;
        waiting = false;
        return true;
    }

    /** The broker confirmed a send: returns true the first time, when the delivery is to be acknowledged. */
    synchronized boolean confirmed() {
        outstanding--;
        if (settled) {
            return false;
        }
        settled = true;
        return true;
    }

    /**
     * A send failed (refused, returned, or never sent): returns true if no other send is outstanding, so that
     * the republish is to be sent again after a back-off.
     */
    synchronized boolean failed() {
        outstanding--;
        if (settled || outstanding > 0) {
            return false;
        }
        refusals++;
        waiting = true;
        return true;
    }

    /** Gives up: the channel closed or the consumer stops. Returns false if it had settled already. */
    synchronized boolean abandon() {
        if (settled) {
            return false;
        }
        settled = true;
        return true;
    }

    /** Whether it waits out a back-off, with nothing sent; a stopping consumer requeues such deliveries. */
    synchronized boolean waiting() {
        return waiting && !settled;
    }

    /** How many times in a row every send failed. */
    synchronized int refusals() {
        return refusals;
    }
}
