package io.github.retrytopology.model.problem;

import static java.util.Objects.requireNonNull;

/**
 * A place in a spec file, as editors count it: lines and columns start at 1.
 *
 * @param file the file as it was named to the reader
 * @param line the line, from 1
 * @param column the column, from 1, in characters
 */
public record Position(String file, int line, int column) implements Comparable<Position> {

    public Position {
        requireNonNull(file, "file");
        if (line < 1 || column < 1) {
            throw new IllegalArgumentException("line and column start at 1, got " + line + ":" + column);
        }
    }

    @Override
    public int compareTo(Position other) {
        int byLine = Integer.compare(line, other.line);
        return byLine != 0 ? byLine : Integer.compare(column, other.column);
    }

    /** Returns {@code file:line:column}, the form editors and build tools link to. */
    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
