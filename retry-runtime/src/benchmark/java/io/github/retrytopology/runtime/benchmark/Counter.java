package io.github.retrytopology.runtime.benchmark;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Counts the messages a contender has finished with, and when it finished the last of those expected. */
final class Counter {

    private final CountDownLatch all;
    private final AtomicLong count = new AtomicLong();
    private volatile long lastAt;

    Counter(int expected) {
        this.all = new CountDownLatch(expected);
    }

    void done() {
        count.incrementAndGet();
        lastAt = System.nanoTime();
        all.countDown();
    }

    boolean await(int seconds) throws InterruptedException {
        return all.await(seconds, TimeUnit.SECONDS);
    }

    long count() {
        return count.get();
    }

    long lastAt() {
        return lastAt;
    }
}
