package io.github.retrytopology.operations.broker;

import java.io.IOException;

/** The management API answered a request with an error status. */
public final class ManagementApiException extends IOException {

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

    /** Whether the API answered that the request's virtual host does not exist. */
    public boolean isVhostMissing() {
        return status == 404 || status == 400 && getMessage().contains("vhost_not_found");
    }
}
