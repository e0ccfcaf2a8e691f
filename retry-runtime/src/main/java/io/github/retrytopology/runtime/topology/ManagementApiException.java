package io.github.retrytopology.runtime.topology;

import io.github.retrytopology.runtime.RetryRuntimeException;

/** The management API answered a request with an error. */
public final class ManagementApiException extends RetryRuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;

    ManagementApiException(String request, int status, String body) {
        super(request + " answered " + status + (body.isBlank() ? "" : ": " + body.strip()));
        this.status = status;
    }

    /** The HTTP status the API answered with. */
    public int status() {
        return status;
    }
}
