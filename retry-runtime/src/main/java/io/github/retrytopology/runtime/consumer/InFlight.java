package io.github.retrytopology.runtime.consumer;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** Counts deliveries not yet answered, so that a graceful stop can wait for the last of them. */
final class InFlight {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    private int count;

    void enter() {
        lock.lock();
        try {
            count++;
        } finally {
            lock.unlock();
        }
    }

    void exit() {
        lock.lock();
        try {
            count--;
            if (count <= 0) {
                idle.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    int count() {
        lock.lock();
        try {
            return count;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until no delivery is in flight; returns whether that happened within the timeout. */
    boolean awaitIdle(Duration timeout) throws InterruptedException {
        long remaining = timeout.toNanos();
        lock.lock();
        try {
            while (count > 0) {
                if (remaining <= 0) {
                    return false;
                }
                remaining = idle.awaitNanos(remaining);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
