package io.github.retrytopology.operations.adopt;

import java.io.IOException;
import java.util.OptionalInt;

/**
 * Definitions that cannot be read: a file that is not JSON, or JSON that is not the definitions RabbitMQ exports,
 * named by the file and, where there is one, the line and column of the bad value.
 */
public final class DefinitionsException extends IOException {

    private static final long serialVersionUID = 1L;

    private final String file;
    private final int line;
    private final int column;

    DefinitionsException(String file, int line, int column, String message) {
        super(file + ":" + line + ":" + column + ": " + message);
        this.file = file;
        this.line = line;
        this.column = column;
    }

    DefinitionsException(String file, String message) {
        super(file + ": " + message);
        this.file = file;
        this.line = -1;
        this.column = -1;
    }

    /** The file, or the request, the definitions came from. */
    public String file() {
        return file;
    }

    /** The line of the bad value, from 1; empty when the problem is the document as a whole. */
    public OptionalInt line() {
        return line > 0 ? OptionalInt.of(line) : OptionalInt.empty();
    }

    /** The column of the bad value, from 1; empty when the problem is the document as a whole. */
    public OptionalInt column() {
        return column > 0 ? OptionalInt.of(column) : OptionalInt.empty();
    }
}
