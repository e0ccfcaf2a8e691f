package io.github.retrytopology.model.problem;

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
 *
 * <p>The path and the message quote what the spec holds, so every character that could break or forge a line
 * of a log, turn the text around or hide in it, is written as an escape: {@code \r}, {@code \n},
 * {@code \t}, or {@code \}{@code uXXXX}.
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
        path = printable(path);
        message = printable(message);
    }

    /** Escapes control characters, line and paragraph separators, bidirectional controls and lone surrogates. */
    static String printable(String text) {
        StringBuilder printable = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                printable.append(c).append(text.charAt(++i));
            } else if (c == '\n') {
                printable.append("\\n");
            } else if (c == '\r') {
                printable.append("\\r");
            } else if (c == '\t') {
                printable.append("\\t");
            } else if (escaped(c)) {
                printable.append(String.format("\\u%04X", (int) c));
            } else {
                printable.append(c);
            }
        }
        return printable.toString();
    }

    /** Controls, format characters (invisible ones, and bidirectional controls), separators, lone surrogates. */
    private static boolean escaped(char c) {
        int type = Character.getType(c);
        return type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR || type == Character.SURROGATE;
    }

    /** Returns {@code file:line:column [code] path: message}. */
    @Override
    public String toString() {
        return position + " [" + code.id() + "] " + (path.isEmpty() ? "" : path + ": ") + message;
    }
}
