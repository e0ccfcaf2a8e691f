package io.github.retrytopology.operations.console;

/** A request the console refuses or cannot answer, with the HTTP status and the sentence it answers with. */
final class ConsoleException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;

    ConsoleException(int status, String message) {
        super(message);
        this.status = status;
    }

    int status() {
        return status;
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
