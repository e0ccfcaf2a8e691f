package io.github.retrytopology.runtime.consumer;

import io.github.retrytopology.model.Service;
import java.time.Duration;

/**
 * The running consumers of one service, on either protocol: {@link RetryingConsumer} over AMQP 0.9.1, or
 * {@link Amqp10RetryingConsumer} over AMQP 1.0, as the service's spec says. What an application, a health check or a
 * container needs to watch and stop them.
 */
public interface ServiceConsumer extends AutoCloseable {

    /** The service it consumes for. */
    Service service();

    /** How many deliveries are being handled, or wait for their retry or park to be taken by the broker. */
    int inFlight();

    /** How many of its consumers are subscribed to the queue now. */
    int consumersRunning();

    /** Whether it receives deliveries: not stopped, and every consumer that should be subscribed is. */
    boolean isRunning();

    /**
     * Stops consuming, letting the deliveries in a handler finish within {@code timeout}; what is not answered by
     * then goes back to the queue.
     *
     * @return whether every delivery in flight was answered in time
     */
    boolean stop(Duration timeout) throws InterruptedException;

    /** Stops within {@link RetryingConsumer#DEFAULT_STOP_TIMEOUT}; see {@link #stop(Duration)}. */
    @Override
    void close();
}
