package io.github.retrytopology.model.topology;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** Unmodifiable sorted copies, so that every rendering of a topology lists keys in one order. */
final class Sorted {

    private Sorted() {
    }

    static SortedMap<String, Object> copyOf(Map<String, Object> map) {
        map.forEach((key, value) -> {
            if (!(value instanceof String) && !(value instanceof Long) && !(value instanceof Integer)) {
                throw new IllegalArgumentException("setting " + key + " must be a string or a whole number, not " + value);
            }
        });
        return Collections.unmodifiableSortedMap(new TreeMap<>(map));
    }
}
