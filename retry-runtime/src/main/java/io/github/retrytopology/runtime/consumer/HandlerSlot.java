package io.github.retrytopology.runtime.consumer;

import org.jspecify.annotations.Nullable;

/**
 * The thread running a handler of one consumer, if one is, so that a stop that times out can interrupt it. The
 * handlers run on the client's pooled threads, which go on to run other services' handlers: the interrupt is sent,
 * and taken back, under the same lock as the thread enters and leaves, so that it never lands on a thread that has
 * left.
 */
final class HandlerSlot {

    private @Nullable Thread running;
    private boolean interrupted;

    /** The calling thread starts a handler. */
    synchronized void enter() {
        running = Thread.currentThread();
        interrupted = false;
    }

    /** The calling thread leaves its handler: an interrupt this slot sent it, and it did not take, goes with it. */
    synchronized void leave() {
        running = null;
        if (interrupted) {
            Thread.interrupted();
            interrupted = false;
        }
    }

    /** Interrupts the handler running now, if one is; returns whether one was. */
    synchronized boolean interrupt() {
        if (running == null) {
            return false;
        }
        interrupted = true;
        running.interrupt();
        return true;
    }
}
