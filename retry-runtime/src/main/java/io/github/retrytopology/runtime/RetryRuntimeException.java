package io.github.retrytopology.runtime;

/** The root of the exceptions the runtime raises. */
public class RetryRuntimeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RetryRuntimeException(String message) {
        super(message);
    }

    public RetryRuntimeException(String message, Throwable cause) {
        super(message, cause);
    }
}
