package io.github.retrytopology.runtime.consumer;

/**
 * A monotonic source of nanoseconds, for confirm deadlines and back-offs. The wall clock can stand still or
 * jump; it is only for the times people read in headers.
 */
@FunctionalInterface
interface Ticker {

    /** Nanoseconds from an arbitrary origin; only differences mean anything. */
    long nanos();

    /** The JVM's monotonic clock. */
    static Ticker system() {
        return System::nanoTime;
    }
}
