package io.github.retrytopology.operations.adopt;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one JSON mapper of adopt, which refuses a key given twice, and JSON values as plain Java: a mapper is costly
 * to make, and the first use of each of its features more so, in a command that runs once.
 */
final class Json {

    static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build());

    private Json() {
    }

    /** A JSON value as strings, numbers, booleans, lists and maps with their keys sorted; null for null. */
    static Object plain(JsonNode value) {
        if (value.isObject()) {
            Map<String, Object> map = new TreeMap<>();
            value.properties().forEach(entry -> map.put(entry.getKey(), plain(entry.getValue())));
            return map;
        }
        if (value.isArray()) {
            List<Object> list = new ArrayList<>();
            value.forEach(item -> list.add(plain(item)));
            return list;
        }
        if (value.isIntegralNumber()) {
            return value.canConvertToInt() ? (Object) value.intValue() : (Object) value.longValue();
        }
        if (value.isNumber()) {
            return value.decimalValue();
        }
        if (value.isBoolean()) {
            return value.booleanValue();
        }
        return value.isNull() || value.isMissingNode() ? null : value.asText();
    }

    /** A JSON object as a sorted map. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> map(JsonNode object) {
        return object.isObject() ? (Map<String, Object>) plain(object) : Map.of();
    }
}
