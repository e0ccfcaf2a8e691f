package io.github.retrytopology.operations.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

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

    static boolean same(@Nullable JsonNode a, @Nullable JsonNode b) {
        if (a == null || a.isMissingNode()) {
            return b == null || b.isMissingNode();
        }
        return b != null && !b.isMissingNode() && a.equals(BY_VALUE, b);
    }

    /**
     * Whether the broker's value is the spec's: numbers by value, strings, booleans, and other values as JSON;
     * a missing or null value is the same as none.
     */
    static boolean same(@Nullable JsonNode onBroker, @Nullable Object inSpec) {
        if (onBroker == null || onBroker.isMissingNode() || onBroker.isNull()) {
            return inSpec == null;
        }
        if (inSpec == null) {
            return false;
        }
        if (inSpec instanceof Integer || inSpec instanceof Long) {
            return onBroker.isIntegralNumber() && onBroker.canConvertToLong()
                    && onBroker.longValue() == ((Number) inSpec).longValue();
        }
        if (inSpec instanceof String text) {
            return onBroker.isTextual() && onBroker.textValue().equals(text);
        }
        if (inSpec instanceof Boolean flag) {
            return onBroker.isBoolean() && onBroker.booleanValue() == flag;
        }
        JsonNode tree = JSON.valueToTree(inSpec);
        return same(onBroker, tree);
    }

    /** Whether a number is lower than another, whatever their types. */
    static boolean lower(JsonNode number, Object than) {
        return number.decimalValue().compareTo(new java.math.BigDecimal(than.toString())) < 0;
    }

    /** The keys of a broker's object and of the spec's settings, sorted. */
    static Set<String> keys(JsonNode onBroker, Map<String, Object> inSpec) {
        Set<String> keys = new TreeSet<>(inSpec.keySet());
        onBroker.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    /**
     * A JSON value as plain Java (strings, numbers, booleans, lists and maps), a whole number as an
     * {@code Integer} when it fits, as the broker's JSON reads; a missing value is null.
     */
    static @Nullable Object plain(@Nullable JsonNode value) {
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
    static @Nullable Object plain(Object value) {
        return value instanceof JsonNode node ? plain(node) : plain(JSON.valueToTree(value));
    }

    /** A JSON value as a person reads it: strings quoted, a missing value as "none". */
    static String show(@Nullable Object value) {
        if (value == null) {
            return "none";
        }
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            return String.valueOf(value);
        }
    }

    static JsonNode get(JsonNode object, String key) {
        JsonNode value = object.get(key);
        return value == null ? MissingNode.getInstance() : value;
    }
}
