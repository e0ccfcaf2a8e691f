package io.github.retrytopology.runtime.consumer;

import io.github.retrytopology.runtime.RetryRuntimeException;

/**
 * Thrown by a handler to send the message to the parking lot at once, whatever its attempt: for a message that
 * no retry can fix. The exception's message becomes the park detail in the message's headers.
 */
public class ParkMessageException extends RetryRuntimeException {

    private static final long serialVersionUID = 1L;

    public ParkMessageException(String message) {
        super(message);
    }

    public ParkMessageException(String message, Throwable cause) {
        super(message, cause);
    }
}
