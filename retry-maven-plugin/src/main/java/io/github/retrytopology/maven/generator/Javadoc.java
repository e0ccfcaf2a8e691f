package io.github.retrytopology.maven.generator;

import java.util.ArrayList;
import java.util.List;

/** Makes any text safe inside a Javadoc comment: it can neither end the comment nor start a tag or an escape. */
final class Javadoc {

    private Javadoc() {
    }

    static String text(String text) {
        StringBuilder safe = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> safe.append("&amp;");
                case '<' -> safe.append("&lt;");
                case '>' -> safe.append("&gt;");
                case '@' -> safe.append("&#64;");
                case '\\' -> safe.append("&#92;");
                case '/' -> safe.append(i > 0 && text.charAt(i - 1) == '*' ? "&#47;" : "/");
                case '\n', '\r' -> safe.append(' ');
                default -> safe.append(c);
            }
        }
        return safe.toString();
    }

    /** Splits escaped text into lines of at most {@code width} characters, at spaces. */
    static List<String> lines(String text, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(word);
        }
        lines.add(line.toString());
        return List.copyOf(lines);
    }

    /** Text as code: {@code <code>text</code>}, escaped. */
    static String code(String text) {
        return "<code>" + text(text) + "</code>";
    }
}
