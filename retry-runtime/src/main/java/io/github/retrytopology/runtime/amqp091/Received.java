package io.github.retrytopology.runtime.amqp091;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.LongString;
import io.github.retrytopology.runtime.headers.MessageProperties;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What the Java client delivers, in no protocol's terms: its header tables with plain Java values, and a message's
 * properties as {@link MessageProperties}. The client reads every AMQP string as its own {@link LongString}; here it
 * becomes a {@code String}, or the bytes themselves where they are not UTF-8, so that nothing past this adapter
 * meets a client type, and sending such a header again keeps its bytes.
 */
public final class Received {

    private Received() {
    }

    /**
     * A deep, unmodifiable copy of a header table with plain values: every {@link LongString} in it, in tables and
     * arrays too, a {@code String}. Null reads as an empty table.
     */
    public static Map<String, Object> headers(@Nullable Map<String, Object> headers) {
        if (headers == null || headers.isEmpty()) {
            return Map.of();
        }
        Map<String, Object> copy = new HashMap<>(headers.size() * 2);
        headers.forEach((name, value) -> copy.put(name, value(value)));
        return Collections.unmodifiableMap(copy);
    }

    /** A message's properties, its headers with plain values and the others as text, in the client's order. */
    public static MessageProperties properties(AMQP.BasicProperties properties) {
        Map<String, String> other = new LinkedHashMap<>();
        put(other, "contentEncoding", properties.getContentEncoding());
        put(other, "correlationId", properties.getCorrelationId());
        put(other, "type", properties.getType());
        put(other, "appId", properties.getAppId());
        put(other, "userId", properties.getUserId());
        put(other, "replyTo", properties.getReplyTo());
        put(other, "expiration", properties.getExpiration());
        put(other, "timestamp", properties.getTimestamp() == null ? null
                : properties.getTimestamp().toInstant().toString());
        put(other, "deliveryMode", properties.getDeliveryMode());
        put(other, "priority", properties.getPriority());
        return new MessageProperties(properties.getMessageId(), properties.getContentType(),
                headers(properties.getHeaders()), other);
    }

    private static void put(Map<String, String> other, String name, @Nullable Object value) {
        if (value != null) {
            other.put(name, value.toString());
        }
    }

    private static @Nullable Object value(@Nullable Object value) {
        if (value instanceof LongString text) {
            return text(text.getBytes());
        }
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

    /** A long string's bytes as text where they are UTF-8, else as they are. */
    private static Object text(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (text.indexOf('\uFFFD') < 0) {
            return text; // nothing was replaced: the bytes are UTF-8, and encode back to the same bytes
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException notText) {
            return bytes;
        }
    }
}
