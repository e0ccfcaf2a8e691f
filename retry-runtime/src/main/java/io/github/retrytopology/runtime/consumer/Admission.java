package io.github.retrytopology.runtime.consumer;

/**
 * How many deliveries the consumers of one service take at once. When a process dies, every delivery it held
 * unacknowledged goes back to the queue, and a quorum queue counts each of them toward its delivery limit: with
 * a prefetch of 20, the neighbours of a message that crashes its consumer would reach the limit with it, and be
 * parked without a handler ever failing them. So the consumers are <em>cautious</em> when they start, and after
 * their connection was lost: only the first consumer is subscribed, with a prefetch of 1, and a delivery that
 * crashes the process goes back alone. The broker hands out the deliveries that came back before any other; once
 * a run of deliveries it had never handed out before arrives, those are past, and the consumers <em>open</em> to
 * their configured prefetch.
 *
 * <p>A delivery that came back is told by a quorum queue's {@code x-delivery-count}, the one sure sign: a classic
 * queue's redelivered flag is set on every message a restarted broker recovers.
 *
 * <p>Going from one prefetch to the other means cancelling the subscription, and RabbitMQ returns (and, on 3.10,
 * counts toward the delivery limit) a delivery that was on its way to a consumer when it was cancelled. So the
 * cautious consumer is cancelled only while it holds its one delivery unanswered, when nothing can be on its way.
 */
final class Admission {

    private final int runToOpen;
    private boolean open;
    private int cleanRun;

    /**
     * @param runToOpen how many deliveries in a row must arrive for the first time before the consumers take
     *     their full prefetch
     */
    Admission(int runToOpen) {
        this.runToOpen = runToOpen;
    }

    /** Whether the consumers take their full prefetch. */
    synchronized boolean isOpen() {
        return open;
    }

    /**
     * Counts a delivery the cautious consumer took, and returns true for the one that completes the run: the
     * consumers are then open, and the cautious subscription is to be cancelled before that delivery is answered.
     */
    synchronized boolean opensWith(Delivery delivery) {
        if (open) {
            return false;
        }
        cleanRun = delivery.suspect() ? 0 : cleanRun + 1;
        if (cleanRun < runToOpen) {
            return false;
        }
        open = true;
        return true;
    }

    /** Turns cautious again: the connection was lost, and what the consumers held comes back. */
    synchronized void turnCautious() {
        open = false;
        cleanRun = 0;
    }
}
