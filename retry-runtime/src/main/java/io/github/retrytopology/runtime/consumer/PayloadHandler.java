package io.github.retrytopology.runtime.consumer;

/**
 * Handles the messages of one routing key, given as a decoded payload.
 *
 * @param <T> the payload type
 */
@FunctionalInterface
public interface PayloadHandler<T> {

    /** Handles one message; see {@link MessageHandler#handle} for what returning and throwing mean. */
    void handle(T payload, DeliveryContext context) throws Exception;
}
