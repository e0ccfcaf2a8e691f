package io.github.retrytopology.runtime.testing;

import java.time.Duration;

/**
 * How long the tests wait for what must happen: a condition, a latch, a message, a confirm, a connection. A wait
 * ends as soon as what it waits for happens, so these bounds cost nothing while the suite passes; they are long so
 * that the suite passes on a machine that runs other builds beside it too (an outside run saw a connection time out
 * at a load of 8 on 2 cores). A test that shows something does not happen keeps a short window of its own.
 */
public final class Patience {

    /** {@link #WAIT} in seconds, for the methods and annotations that take an amount and a unit. */
    public static final long WAIT_SECONDS = 60;
    /** The longest a test waits for something that must happen. */
    public static final Duration WAIT = Duration.ofSeconds(WAIT_SECONDS);
    /**
     * The longest a connection may take to open, its AMQP handshake included (the Java client's own default
     * handshake timeout, 10 s, is what a loaded machine exceeded), and an HTTP connection to the management API.
     */
    public static final Duration CONNECT = Duration.ofSeconds(60);

    private Patience() {
    }
}
