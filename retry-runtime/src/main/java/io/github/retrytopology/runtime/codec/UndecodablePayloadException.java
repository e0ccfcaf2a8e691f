package io.github.retrytopology.runtime.codec;

import io.github.retrytopology.runtime.RetryRuntimeException;

/** Thrown by a codec for a body it cannot decode; the message is parked at once, as retrying cannot help. */
public class UndecodablePayloadException extends RetryRuntimeException {

    private static final long serialVersionUID = 1L;

    public UndecodablePayloadException(String message) {
        super(message);
    }

    public UndecodablePayloadException(String message, Throwable cause) {
        super(message, cause);
    }
}
