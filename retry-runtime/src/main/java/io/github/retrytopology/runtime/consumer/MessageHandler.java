package io.github.retrytopology.runtime.consumer;

/** Handles the messages of one routing key, given as they arrived. */
@FunctionalInterface
public interface MessageHandler {

    /**
     * Handles one message. Returning acknowledges it; throwing fails this attempt, and the service's retry
     * policy decides what follows. Throw {@link ParkMessageException} to park the message at once, or
     * {@link RetryMessageException} to retry it whatever the failure. An {@link InterruptedException} means the
     * consumer is being stopped: the message is requeued as it was, and no attempt is counted.
     */
    void handle(DeliveryContext context) throws Exception;
}
