package io.github.retrytopology.operations.plan;

import java.time.Duration;

/** Waits for the broker's statistics to be collected anew: a real pause, or a moved clock in tests. */
@FunctionalInterface
interface Sleeper {

    void sleep(Duration duration) throws InterruptedException;
}
