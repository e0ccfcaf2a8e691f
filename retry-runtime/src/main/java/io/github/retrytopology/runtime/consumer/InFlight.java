package io.github.retrytopology.runtime.consumer;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the deliveries of one service's consumers that are not answered yet: being handled, waiting for their
 * republish to be confirmed, or waiting to be handled. A graceful stop waits for it to reach zero.
 */
final class InFlight {

    private final AtomicInteger count = new AtomicInteger();
    private final Ticker ticker;

    InFlight(Ticker ticker) {
        this.ticker = ticker;
    }

    void enter() {
        count.incrementAndGet();
    }

    void exit() {
        int left = count.decrementAndGet();
        if (left < 0) {
            throw new IllegalStateException("more deliveries answered than received: " + left + " in flight");
        }
        if (left == 0) {
            synchronized (this) {
                notifyAll();
            }
        }
    }

    int count() {
        return count.get();
    }

    /** Waits until no delivery is in flight; returns whether that happened within the timeout, by the ticker. */
    boolean awaitIdle(Duration timeout) throws InterruptedException {
        long deadline = ticker.nanos() + timeout.toNanos();
        synchronized (this) {
            while (count.get() > 0) {
                long remaining = deadline - ticker.nanos();
                if (remaining <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(this, remaining);
            }
        }
        return true;
    }
}
