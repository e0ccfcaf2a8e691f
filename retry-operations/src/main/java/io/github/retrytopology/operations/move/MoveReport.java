package io.github.retrytopology.operations.move;

import static java.util.Objects.requireNonNull;

/**
 * What a move did.
 *
 * @param source the queue the messages left
 * @param destination the queue they went to
 * @param moved how many: each confirmed in the destination, then taken from the source
 * @param ending why it stopped
 * @param left the messages ready in the source at the end, read live: those beyond the limit, or those that
 *     arrived after the source was found drained
 */
public record MoveReport(String source, String destination, long moved, Ending ending, long left) {

    public MoveReport {
        requireNonNull(source, "source");
        requireNonNull(destination, "destination");
        requireNonNull(ending, "ending");
    }

    /** Why a move stopped. */
    public enum Ending {
        /** The source was found empty: see {@link MessageMover} for what that means when it still receives messages. */
        DRAINED,
        /** It moved as many as it was told to. */
        LIMIT
    }
}
