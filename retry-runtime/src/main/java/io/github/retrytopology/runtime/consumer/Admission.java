package io.github.retrytopology.runtime.consumer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * How many deliveries the consumers of one service take at once. When a process dies, every delivery it held
 * unacknowledged goes back to the queue, and a quorum queue counts each of them toward its delivery limit: with
 * a prefetch of 20, the neighbours of a message that crashes its consumer would reach the limit with it, and be
 * parked without a handler ever failing them. So the consumers are <em>cautious</em> at first: one of them takes
 * one delivery at a time. They open up to the configured prefetch after a run of deliveries that the broker had
 * not handed out before. A delivery that it had (a quorum queue's {@code x-delivery-count}, the one sure sign;
 * a classic queue's redelivered flag is not) makes them cautious again, and waits to be handled alone: once
 * every other delivery the process holds is answered, so that if it crashes the process, it goes back alone.
 */
final class Admission {

    private final int runToOpen;
    private final Deque<Delivery> waiting = new ArrayDeque<>();
    private Delivery alone;
    private boolean open;
    private int cleanRun;
    private volatile boolean watching = true;

    /**
     * @param runToOpen how many deliveries in a row must arrive for the first time before the consumers take
     *     their full prefetch: at least what one process holds, so that a crashed process's deliveries are past
     */
    Admission(int runToOpen) {
        this.runToOpen = runToOpen;
    }

    /** Whether the consumers take their full prefetch. */
    synchronized boolean isOpen() {
        return open;
    }

    /**
     * Whether anything is to be reviewed after each answer: while cautious, or while deliveries wait to be
     * handled alone. A volatile read, so that an open consumer pays nothing more per delivery.
     */
    boolean watching() {
        return watching;
    }

    /**
     * Sets a delivery aside to be handled alone if an earlier delivery of it ended unanswered, and turns
     * cautious; returns whether it did.
     */
    synchronized boolean setAside(Delivery delivery) {
        if (!delivery.suspect()) {
            return false;
        }
        waiting.add(delivery);
        open = false;
        cleanRun = 0;
        watching = true;
        return true;
    }

    /** Notes a delivery answered; {@code handled} if a handler's outcome answered it, not a stop or a lost channel. */
    synchronized void answered(Delivery delivery, boolean handled) {
        if (delivery == alone) {
            alone = null;
        }
        if (open || !handled) {
            return;
        }
        if (delivery.suspect()) {
            cleanRun = 0;
        } else if (++cleanRun >= runToOpen && waiting.isEmpty() && alone == null) {
            open = true;
            watching = false;
        }
    }

    /**
     * The next delivery to handle alone, if none is being handled so and every delivery in flight is one of
     * those waiting; null otherwise.
     */
    synchronized Delivery nextAlone(int inFlight) {
        if (alone != null || waiting.isEmpty() || inFlight > waiting.size()) {
            return null;
        }
        alone = waiting.poll();
        return alone;
    }

    /** Whether nothing is in flight, waiting or handled alone: a cautious consumer may take its one delivery. */
    synchronized boolean quiet(int inFlight) {
        return inFlight == 0 && waiting.isEmpty() && alone == null;
    }

    /** Takes out the waiting deliveries that {@code which} selects, to requeue or let go. */
    synchronized List<Delivery> remove(java.util.function.Predicate<Delivery> which) {
        List<Delivery> removed = new ArrayList<>();
        waiting.removeIf(delivery -> which.test(delivery) && removed.add(delivery));
        return removed;
    }
}
