package io.github.retrytopology.runtime.topology;

import java.util.List;
import java.util.Map;

/** Writes the few JSON documents the management API takes: maps, lists, strings, numbers and booleans. */
final class Json {

    private Json() {
    }

    static String write(Object value) {
        StringBuilder json = new StringBuilder();
        write(value, json);
        return json.toString();
    }

    private static void write(Object value, StringBuilder json) {
        if (value instanceof Map<?, ?> map) {
            json.append('{');
            String separator = "";
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                json.append(separator);
                string(String.valueOf(entry.getKey()), json);
                json.append(':');
                write(entry.getValue(), json);
                separator = ",";
            }
            json.append('}');
        } else if (value instanceof List<?> list) {
            json.append('[');
            String separator = "";
            for (Object item : list) {
                json.append(separator);
                write(item, json);
                separator = ",";
            }
            json.append(']');
        } else if (value instanceof Number || value instanceof Boolean) {
            json.append(value);
        } else if (value instanceof String text) {
            string(text, json);
        } else {
            throw new IllegalArgumentException("cannot write " + value + " as JSON");
        }
    }

    private static void string(String text, StringBuilder json) {
        json.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }
}
