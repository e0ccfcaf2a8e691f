package io.github.retrytopology.runtime.headers;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What a message carries besides its body, in no protocol's terms: its message id and content type, its headers as
 * plain Java values ({@link RetryHeaders} reads them), and the protocol's other properties by name, as text, to show
 * to a person. A protocol's adapter makes one from what its client delivers; sending the message again is that
 * adapter's job, from what the protocol delivered.
 *
 * @param messageId the publisher's message id; null if none
 * @param contentType the body's content type; null if none
 * @param headers the headers: text as {@code String}s, numbers, booleans, {@code List}s, {@code Map}s, bytes and
 *     times, values null where the protocol allows it; unmodifiable
 * @param other the protocol's other properties that are set, by name and as text, in the protocol's order, such as
 *     {@code correlationId}, {@code expiration} or {@code deliveryMode}; unmodifiable
 */
public record MessageProperties(@Nullable String messageId, @Nullable String contentType,
        Map<String, Object> headers, Map<String, String> other) {

    public MessageProperties {
        headers = Collections.unmodifiableMap(new HashMap<>(requireNonNull(headers, "headers")));
        other = Collections.unmodifiableMap(new LinkedHashMap<>(requireNonNull(other, "other")));
    }
}
