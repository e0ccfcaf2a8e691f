package io.github.retrytopology.runtime.headers;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A deep, unmodifiable copy of a header table, taken when a message arrives. */
final class Snapshot {

    private Snapshot() {
    }

    /** Copies a header table and every table and array in it; values may be null, as AMQP allows. */
    static Map<String, Object> of(Map<String, Object> headers) {
        Map<String, Object> copy = new HashMap<>(headers.size() * 2);
        headers.forEach((name, value) -> copy.put(name, value(value)));
        return Collections.unmodifiableMap(copy);
    }

    private static @Nullable Object value(@Nullable Object value) {
        if (value instanceof Map<?, ?> table) {
            Map<Object, Object> copy = new HashMap<>(table.size() * 2);
            table.forEach((name, item) -> copy.put(name, value(item)));
            return Collections.unmodifiableMap(copy);
        }
        if (value instanceof List<?> array) {
            List<Object> copy = new ArrayList<>(array.size());
            array.forEach(item -> copy.add(value(item)));
            return Collections.unmodifiableList(copy);
        }
        if (value instanceof byte[] bytes) {
            return bytes.clone();
        }
        return value;
    }
}
