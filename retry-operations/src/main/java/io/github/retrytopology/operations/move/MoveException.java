package io.github.retrytopology.operations.move;

import java.io.IOException;

/**
 * A move that stopped before its end: the broker refused or returned a copy, did not confirm in time, or a channel
 * closed. Every message is then in the source, the destination, or both; none is lost.
 */
public final class MoveException extends IOException {

    private static final long serialVersionUID = 1L;

    private final long moved;

    MoveException(String message, long moved, Throwable cause) {
        super(message, cause);
        this.moved = moved;
    }

    /** How many messages moved before it stopped: confirmed in the destination and taken from the source. */
    public long moved() {
        return moved;
    }
}
