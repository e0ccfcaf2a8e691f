package io.github.retrytopology.runtime.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeSet;
import java.util.Set;

/** Compares and converts the settings of the spec and of the broker, which write the same number differently. */
final class Values {

    static final ObjectMapper JSON = new ObjectMapper();

    /** Numbers are equal by value (the broker's {@code 200} is the spec's {@code 200L}); the rest as JSON is. */
    private static final Comparator<JsonNode> BY_VALUE = (a, b) -> {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue());
        }
        return a.equals(b) ? 0 : 1;
    };

    private Values() {
    }

    static boolean same(JsonNode a, JsonNode b) {
        if (a == null || a.isMissingNode()) {
            return b == null || b.isMissingNode();
        }
        return b != null && !b.isMissingNode() && a.equals(BY_VALUE, b);
    }

    /** A model's settings, as JSON. */
    static ObjectNode tree(Map<String, Object> settings) {
        return JSON.valueToTree(settings);
    }

    /**
     * A JSON value as plain Java (strings, numbers, booleans, lists and maps), a whole number as an
     * {@code Integer} when it fits, as the broker's JSON reads; a missing value is null.
     */
    static Object plain(JsonNode value) {
        if (value == null || value.isMissingNode()) {
            return null;
        }
        try {
            return JSON.readValue(JSON.writeValueAsBytes(value), Object.class);
        } catch (IOException e) {
            throw new IllegalStateException("a JSON value could not be read back: " + value, e);
        }
    }

    /** A value of the model, such as a {@code Long} TTL, as {@link #plain(JsonNode)} gives it. */
    static Object plain(Object value) {
        return value instanceof JsonNode node ? plain(node) : plain(JSON.valueToTree(value));
    }

    /** A JSON value as a person reads it: strings quoted, a missing value as "none". */
    static String show(Object value) {
        if (value == null) {
            return "none";
        }
        try {
            return JSON.writeValueAsString(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return String.valueOf(value);
        }
    }

    /** The keys of two objects, sorted. */
    static Set<String> keys(JsonNode a, JsonNode b) {
        Set<String> keys = new TreeSet<>();
        a.fieldNames().forEachRemaining(keys::add);
        b.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    static JsonNode get(JsonNode object, String key) {
        JsonNode value = object.get(key);
        return value == null ? MissingNode.getInstance() : value;
    }
}
