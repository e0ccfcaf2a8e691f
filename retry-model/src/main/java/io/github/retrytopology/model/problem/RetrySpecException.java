package io.github.retrytopology.model.problem;

/** The root of the exceptions that reading a retry spec can raise. */
public class RetrySpecException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RetrySpecException(String message) {
        super(message);
    }

    public RetrySpecException(String message, Throwable cause) {
        super(message, cause);
    }
}
