package io.github.retrytopology.model.read;

import static java.util.Objects.requireNonNull;

import java.util.Comparator;

/**
 * One thing wrong with a spec, precise enough to act on without reading the reader's code.
 *
 * @param position where the bad value starts
 * @param path the YAML path of the bad value, such as {@code services.cdn-purge.routingKeys[1].handler};
 *     empty for the document itself
 * @param code a stable identifier of the rule that was broken
 * @param message what is wrong, quoting the bad value, and what was expected
 */
public record Problem(Position position, String path, ProblemCode code, String message) {

    /** Orders problems as they appear in the file. */
    public static final Comparator<Problem> IN_FILE_ORDER =
            Comparator.comparing(Problem::position).thenComparing(problem -> problem.code().id());

    public Problem {
        requireNonNull(position, "position");
        requireNonNull(path, "path");
        requireNonNull(code, "code");
        requireNonNull(message, "message");
    }

    /** Returns {@code file:line:column [code] path: message}. */
    @Override
    public String toString() {
        return position + " [" + code.id() + "] " + (path.isEmpty() ? "" : path + ": ") + message;
    }
}
