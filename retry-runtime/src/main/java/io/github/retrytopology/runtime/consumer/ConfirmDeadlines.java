package io.github.retrytopology.runtime.consumer;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Looks, on the settlement lane, for republishes the broker has not confirmed in time, but only while some wait
 * for their confirm: the timer is armed by the send that starts the wait, and lapses once none is left, so that
 * the lane of a consumer with nothing to republish sleeps.
 */
final class ConfirmDeadlines {

    private final SettlementLane lane;
    private final long periodNanos;
    private final AtomicBoolean armed = new AtomicBoolean();
    /** Sends again what is overdue and says whether any send still waits; set once, before the first send. */
    private volatile BooleanSupplier expire = () -> false;

    ConfirmDeadlines(SettlementLane lane, long periodNanos) {
        this.lane = lane;
        this.periodNanos = periodNanos;
    }

    /** What a look does: send again what is overdue, and say whether any send still waits for its confirm. */
    void lookWith(BooleanSupplier expire) {
        this.expire = expire;
    }

    /** A send now waits for its confirm: looks after a period, unless a look is due already. From any thread. */
    void arm() {
        if (armed.compareAndSet(false, true)) {
            lane.schedule(this::look, periodNanos);
        }
    }

    private void look() {
        lane.checkOwned();
        if (expire.getAsBoolean()) {
            lane.schedule(this::look, periodNanos);
            return;
        }
        armed.set(false);
        // A send that started its wait since the look found none armed nothing, seeing the timer armed.
        if (expire.getAsBoolean()) {
            arm();
        }
    }
}
