package io.github.retrytopology.runtime.codec;

import java.util.List;

/** How the JSON codecs, of Jackson 2 and of Jackson 3, say that a body could not be decoded: in the same words. */
final class JsonFailures {

    private JsonFailures() {
    }

    /** One step of the path to a value: a property's name, or else an index in an array (-1 if neither). */
    record Step(String property, int index) {
    }

    /** Well-formed JSON whose value at {@code path} does not fit {@code type}. */
    static UndecodablePayloadException misfit(Class<?> type, List<Step> path, String reason, Throwable cause) {
        String where = path(path);
        return new UndecodablePayloadException("JSON that does not fit " + type.getName()
                + (where.isEmpty() ? "" : " at " + where) + ": " + reason, cause);
    }

    /** A body that is not JSON. */
    static UndecodablePayloadException invalid(String reason, Throwable cause) {
        return new UndecodablePayloadException("invalid JSON: " + reason, cause);
    }

    /** Where in the document a value is, such as {@code photos[2].id}. */
    private static String path(List<Step> steps) {
        StringBuilder path = new StringBuilder();
        for (Step step : steps) {
            if (step.property() != null) {
                path.append(path.length() == 0 ? "" : ".").append(step.property());
            } else if (step.index() >= 0) {
                path.append('[').append(step.index()).append(']');
            }
        }
        return path.toString();
    }
}
