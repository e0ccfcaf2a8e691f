package io.github.retrytopology.runtime.tracing;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The message's headers as the tracers' propagators read them. */
final class Headers {

    private Headers() {
    }

    /** A header as text, or null: the consumer hands its headers over with text as strings. */
    static @Nullable String text(@Nullable Map<String, Object> headers, String key) {
        Object value = headers == null ? null : headers.get(key);
        return value == null ? null : value.toString();
    }
}
