package io.github.retrytopology.runtime.parkinglot;

import java.util.function.LongSupplier;

/**
 * Spaces events at most {@code rate} a second: the first goes at once, each next one an interval after the one
 * before, or at once if it comes later than that. A pause never leads to a burst.
 */
final class Pace {

    /** Waits a number of nanoseconds. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(long nanos) throws InterruptedException;
    }

    private static final Sleeper THREAD_SLEEP = nanos -> Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));

    private final long interval;
    private final LongSupplier ticker;
    private final Sleeper sleeper;
    private long next;
    private boolean started;

    Pace(double rate, LongSupplier ticker, Sleeper sleeper) {
        this.interval = (long) (1_000_000_000 / rate);
        this.ticker = ticker;
        this.sleeper = sleeper;
    }

    static Pace of(double rate, LongSupplier ticker) {
        return new Pace(rate, ticker, THREAD_SLEEP);
    }

    /** Waits until the next event may go. */
    void await() throws InterruptedException {
        long now = ticker.getAsLong();
        if (started && next - now > 0) {
            sleeper.sleep(next - now);
            now = next;
        }
        started = true;
        next = now + interval;
    }
}
