package io.github.retrytopology.model.read;

import io.github.retrytopology.model.problem.Position;

import static java.util.Objects.requireNonNull;

/**
 * A value read from a spec, with where it stands, so that a later check can point at it.
 *
 * @param value the value as read
 * @param position where the value starts in the file
 * @param path the value's YAML path, such as {@code services.cdn-purge.maxAttempts}
 * @param <T> the value's type
 */
public record Located<T>(T value, Position position, String path) {

    public Located {
        requireNonNull(value, "value");
        requireNonNull(position, "position");
        requireNonNull(path, "path");
    }
}
