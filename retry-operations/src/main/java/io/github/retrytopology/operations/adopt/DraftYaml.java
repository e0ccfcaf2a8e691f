package io.github.retrytopology.operations.adopt;

import io.github.retrytopology.operations.adopt.Draft.Key;
import io.github.retrytopology.operations.adopt.Draft.Service;
import io.github.retrytopology.operations.adopt.Draft.Value;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** Prints a {@link Draft} as YAML: comments wrapped, and a scalar quoted wherever YAML could read it otherwise. */
final class DraftYaml {

    /** The longest line a comment is wrapped to. */
    static final int WIDTH = 116;

    /** What YAML reads as a plain string whatever follows: a word of letters, digits and a few marks. */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_./@-]*");
    /** Plain scalars that YAML 1.1, as SnakeYAML reads it, takes for booleans or null. */
    private static final Set<String> SPECIAL = Set.of("y", "yes", "n", "no", "true", "false", "on", "off", "null");

    private final StringBuilder yaml = new StringBuilder();

    private DraftYaml() {
    }

    static String print(Draft draft) {
        return new DraftYaml().write(draft);
    }

    private String write(Draft draft) {
        comment("", draft.header());
        if (!draft.services().isEmpty()) {
            yaml.append("version: 1\n");
            value("", "package", draft.javaPackage());
            value("", "vhost", draft.vhost());
            value("", "exchange", draft.exchange());
            yaml.append("services:\n");
            for (Service service : draft.services()) {
                service(service);
            }
        }
        if (!draft.trailer().isEmpty()) {
            yaml.append('\n');
            comment("", draft.trailer());
        }
        return yaml.toString();
    }

    private void service(Service service) {
        comment("  ", service.comments());
        yaml.append("  ").append(scalar(service.name())).append(":\n");
        value("    ", "queue", service.queue());
        value("    ", "queueType", service.queueType());
        comment("    ", service.routingKeysComments());
        yaml.append("    routingKeys:\n");
        for (Key key : service.routingKeys()) {
            if (key.handler().isEmpty()) {
                yaml.append("      - ").append(scalar(key.key())).append('\n');
            } else {
                yaml.append("      - key: ").append(scalar(key.key())).append('\n')
                        .append("        handler: ").append(key.handler().get()).append('\n');
            }
        }
        value("    ", "maxAttempts", service.maxAttempts());
        service.delayBy().ifPresent(delayBy -> value("    ", "delayBy", delayBy));
        service.delays().ifPresent(delays -> {
            comment("    ", delays.comments());
            yaml.append("    delays: ").append(delays.value()).append('\n');
        });
    }

    private void value(String indent, String key, Value value) {
        comment(indent, value.comments());
        yaml.append(indent).append(key).append(": ").append(key.equals("maxAttempts") ? value.value()
                : scalar(value.value())).append('\n');
    }

    /**
     * Each paragraph as comment lines of at most {@link #WIDTH} characters where its words allow; a paragraph that
     * starts with {@code "- "} is an item of a list, its further lines indented under its first.
     */
    private void comment(String indent, List<String> paragraphs) {
        for (String paragraph : paragraphs) {
            String first = indent + "# ";
            String next = paragraph.startsWith("- ") ? first + "  " : first;
            StringBuilder line = new StringBuilder(first);
            boolean empty = true;
            for (String word : paragraph.strip().split(" +")) {
                if (!empty && line.length() + 1 + word.length() > WIDTH) {
                    yaml.append(line).append('\n');
                    line = new StringBuilder(next);
                    empty = true;
                }
                if (!empty) {
                    line.append(' ');
                }
                line.append(word);
                empty = false;
            }
            yaml.append(line.toString().stripTrailing()).append('\n');
        }
    }

    /** A string as a YAML scalar: plain where that reads back as the same string, else single-quoted. */
    static String scalar(String value) {
        if (PLAIN.matcher(value).matches() && !SPECIAL.contains(value.toLowerCase(Locale.ROOT))) {
            return value;
        }
        return "'" + value.replace("'", "''") + "'";
    }
}
