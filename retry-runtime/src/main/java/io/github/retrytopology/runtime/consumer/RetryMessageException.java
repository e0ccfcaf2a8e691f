package io.github.retrytopology.runtime.consumer;

import io.github.retrytopology.runtime.RetryRuntimeException;

/**
 * Thrown by a handler to retry the message whatever the failure's type, even one listed as non-retryable; the
 * attempts are still bounded by {@code maxAttempts}.
 */
public class RetryMessageException extends RetryRuntimeException {

    private static final long serialVersionUID = 1L;

    public RetryMessageException(String message) {
        super(message);
    }

    public RetryMessageException(String message, Throwable cause) {
        super(message, cause);
    }
}
