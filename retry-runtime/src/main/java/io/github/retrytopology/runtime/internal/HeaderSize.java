package io.github.retrytopology.runtime.internal;

import io.github.retrytopology.model.headers.Header;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * How many bytes a header table takes in a frame: counted exactly, which encodes every string, or bounded without
 * encoding one, which is cheaper and enough where the bound fits. Values are plain Java ones: the protocol's adapter
 * turned its client's own types into them on arrival.
 */
final class HeaderSize {

    /** The most bytes a publish id takes in a header table: its key, a type byte and a long. */
    static final int PUBLISH_ID_BYTES = 1 + Header.PUBLISH_ID.name().length() + 1 + 8;

    private HeaderSize() {
    }

    /** An estimate of the encoded size of a header table, generous for nested values. */
    static int size(Map<String, Object> headers) {
        return tableSize(headers, true);
    }

    /**
     * More than the encoded size of a header table, found without encoding a string: a character takes at most
     * three bytes in UTF-8 (a surrogate pair, two characters, takes four).
     */
    static int sizeBound(Map<String, Object> headers) {
        return tableSize(headers, false);
    }

    private static int tableSize(Map<?, ?> table, boolean exact) {
        int bytes = 4;
        for (Map.Entry<?, ?> entry : table.entrySet()) {
            bytes += entrySize(String.valueOf(entry.getKey()), entry.getValue(), exact);
        }
        return bytes;
    }

    /** A bound of the size that one entry adds to a header table, as {@link #sizeBound} counts it. */
    static int entryBound(Header<?> header, @Nullable Object value) {
        return value == null ? 0 : entrySize(header.name(), value, false);
    }

    static int entrySize(String key, @Nullable Object value, boolean exact) {
        return 1 + (exact ? key.getBytes(StandardCharsets.UTF_8).length : 3 * key.length()) + 1
                + valueSize(value, exact);
    }

    static int valueSize(@Nullable Object value, boolean exact) {
        if (value instanceof Map<?, ?> map) {
            return tableSize(map, exact);
        }
        if (value instanceof List<?> list) {
            int bytes = 4;
            for (Object item : list) {
                bytes += 1 + valueSize(item, exact);
            }
            return bytes;
        }
        if (value instanceof byte[] bytes) {
            return 4 + bytes.length;
        }
        if (value instanceof String text) {
            return 4 + (exact ? text.getBytes(StandardCharsets.UTF_8).length : 3 * text.length());
        }
        return 8;
    }
}
