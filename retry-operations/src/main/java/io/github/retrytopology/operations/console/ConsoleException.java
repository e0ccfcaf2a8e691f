package io.github.retrytopology.operations.console;

import java.util.Set;

/** A request the console refuses or cannot answer, with the HTTP status and the sentence it answers with. */
final class ConsoleException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final Set<String> allowed;

    ConsoleException(int status, String message) {
        this(status, message, Set.of());
    }

    private ConsoleException(int status, String message, Set<String> allowed) {
        super(message);
        this.status = status;
        this.allowed = Set.copyOf(allowed);
    }

    int status() {
        return status;
    }

    /** The methods the path takes, for a 405's {@code Allow}; empty for any other refusal. */
    Set<String> allowed() {
        return allowed;
    }

    /** The same refusal, naming the methods the path takes. */
    ConsoleException allowing(Set<String> methods) {
        return new ConsoleException(status, getMessage(), methods);
    }

    static ConsoleException badRequest(String message) {
        return new ConsoleException(400, message);
    }

    static ConsoleException notFound(String message) {
        return new ConsoleException(404, message);
    }

    static ConsoleException conflict(String message) {
        return new ConsoleException(409, message);
    }
}
