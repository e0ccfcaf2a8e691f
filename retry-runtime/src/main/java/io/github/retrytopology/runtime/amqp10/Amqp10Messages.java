package io.github.retrytopology.runtime.amqp10;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.amqp.Message;
import com.rabbitmq.client.amqp.Publisher;
import io.github.retrytopology.model.headers.Header;
import io.github.retrytopology.runtime.internal.Timestamps;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What an AMQP 1.0 delivery carries, in this runtime's terms, and the message that parks one. RabbitMQ puts a
 * message's exchange and routing key in message annotations, an AMQP 0.9.1 publisher's headers whose names start
 * with {@code x-} there too, whatever their values, and its other headers in application properties, which hold only
 * simple values (the broker does not hand over a table or an array there). The parked message keeps the publisher's
 * annotations as they came, and writes the other headers as application properties: a list of text as its lines,
 * and anything else that cannot be written is dropped and named in {@code retry-dropped-headers}.
 */
public final class Amqp10Messages {

    /** The annotation in which RabbitMQ gives the exchange a message was published to. */
    public static final String EXCHANGE = "x-exchange";
    /** The annotation in which RabbitMQ gives the routing key a message was published with. */
    public static final String ROUTING_KEY = "x-routing-key";
    /** The annotation that holds a failed message back until this time, in milliseconds since the epoch. */
    public static final String DELIVERY_TIME = "x-opt-delivery-time";
    /**
     * The annotation that keeps when a message first failed, as {@code retry-first-failure} does on tier queues: a
     * retry the broker holds is the same message, and carries nothing else of its past.
     */
    public static final String FIRST_FAILURE = "x-opt-retry-first-failure";

    /**
     * The annotations that are not the publisher's: the broker's record of where a message was published and of its
     * AMQP 0.9.1 properties, the time it received it, and this runtime's delivery time and first failure.
     */
    private static final Set<String> NOT_THE_PUBLISHERS = Set.of(EXCHANGE, ROUTING_KEY, DELIVERY_TIME, FIRST_FAILURE,
            "x-opt-rabbitmq-received-time", Header.X_DELIVERY_COUNT.name());
    /** The prefix of the annotations in which RabbitMQ keeps AMQP 0.9.1 properties that AMQP 1.0 has no field for. */
    private static final String BASIC_PROPERTY = "x-basic-";
    /** The annotation in which RabbitMQ keeps an AMQP 0.9.1 publisher's {@code type}. */
    private static final String BASIC_TYPE = BASIC_PROPERTY + "type";

    /** What the client reads as the time to live of a message that has none: 2^32 - 1, in milliseconds. */
    private static final long NO_TIME_TO_LIVE = 0xFFFF_FFFFL;

    private Amqp10Messages() {
    }

    /**
     * The headers a delivery carries as plain values, as an AMQP 0.9.1 consumer would see them: its application
     * properties and the publisher's annotations (text, numbers, flags, times, bytes, and lists and maps of them),
     * with the broker's failed-delivery count as {@code x-delivery-count} where it has one, so that the same reading
     * of headers serves both protocols. Unmodifiable.
     */
    public static Map<String, Object> headers(Message message) {
        Map<String, Object> headers = new HashMap<>();
        message.forEachAnnotation((name, value) -> {
            if (publishers(name)) {
                headers.put(name, plain(value));
            }
        });
        message.forEachProperty((name, value) -> headers.put(name, value(value)));
        long failed = message.deliveryCount();
        if (failed > 0) {
            headers.put(Header.X_DELIVERY_COUNT.name(), (int) Math.min(failed, Integer.MAX_VALUE));
        }
        return Collections.unmodifiableMap(headers);
    }

    /** The exchange the message was published to, empty for the default exchange or a queue's own address. */
    public static String exchange(Message message) {
        return message.annotation(EXCHANGE) instanceof String exchange ? exchange : "";
    }

    /** The routing key it was published with: its annotation, or its subject when published to an address. */
    public static String routingKey(Message message) {
        if (message.annotation(ROUTING_KEY) instanceof String key) {
            return key;
        }
        return message.subject() == null ? "" : message.subject();
    }

    /**
     * Its time to live, as AMQP 0.9.1 writes an expiration: milliseconds, as text; null if none. The client reads a
     * message without one as one with the largest an AMQP 1.0 header holds, 4294967295 ms (about
     * 49.7 days), and tells the two apart in no other way: that one is taken for none.
     */
    public static @Nullable String expiration(Message message) {
        Duration ttl = message.ttl();
        return ttl == null || ttl.toMillis() >= NO_TIME_TO_LIVE ? null : Long.toString(ttl.toMillis());
    }

    /** Its type: its subject, or the type an AMQP 0.9.1 publisher gave it; null if none. */
    private static @Nullable String type(Message message) {
        if (message.subject() != null) {
            return message.subject();
        }
        return message.annotation(BASIC_TYPE) instanceof String type ? type : null;
    }

    /** Its message id as text; null if none. */
    public static @Nullable String messageId(Message message) {
        return text(message.messageId());
    }

    /**
     * Its properties in the terms {@code DeliveryContext.properties()} gives for either protocol, mapped as RabbitMQ
     * maps them between AMQP 1.0 and 0.9.1: {@code subject} is the {@code type} (an AMQP 0.9.1 publisher's comes in
     * the annotation {@code x-basic-type}), {@code group-id} the {@code app-id}, {@code creation-time} the
     * {@code timestamp}, {@code ttl} the {@code expiration}, {@code durable} the delivery mode.
     */
    public static AMQP.BasicProperties properties(Message message, Map<String, Object> headers) {
        return new AMQP.BasicProperties.Builder()
                .contentType(message.contentType())
                .contentEncoding(message.contentEncoding())
                .headers(headers)
                .deliveryMode(message.durable() ? 2 : 1)
                .priority((int) message.priority())
                .correlationId(text(message.correlationId()))
                .replyTo(message.replyTo())
                .expiration(expiration(message))
                .messageId(messageId(message))
                .timestamp(message.creationTime() > 0 ? new Date(message.creationTime()) : null)
                .type(type(message))
                .appId(message.groupId())
                .userId(message.userId() == null ? null : new String(message.userId(), StandardCharsets.UTF_8))
                .build();
    }

    /**
     * The message that parks a delivery: its body and properties, the publisher's annotations as they came, these
     * headers as application properties, durable, and without the time to live the original may have had, which the
     * headers keep, so that a parked message never expires from the parking lot.
     */
    public static Message parked(Publisher publisher, Message delivered, byte[] body, Map<String, Object> headers) {
        Message parked = publisher.message(body).durable(true);
        if (delivered.messageId() != null) {
            parked.messageId(delivered.messageId());
        }
        if (delivered.correlationId() != null) {
            parked.correlationId(delivered.correlationId());
        }
        if (delivered.contentType() != null) {
            parked.contentType(delivered.contentType());
        }
        if (delivered.contentEncoding() != null) {
            parked.contentEncoding(delivered.contentEncoding());
        }
        if (delivered.subject() != null) {
            parked.subject(delivered.subject());
        } else if (delivered.annotation(BASIC_TYPE) instanceof String type) {
            parked.annotation(BASIC_TYPE, type);
        }
        if (delivered.groupId() != null) {
            parked.groupId(delivered.groupId());
        }
        if (delivered.replyTo() != null) {
            parked.replyTo(delivered.replyTo());
        }
        if (delivered.userId() != null) {
            parked.userId(delivered.userId());
        }
        if (delivered.creationTime() > 0) {
            parked.creationTime(delivered.creationTime());
        }
        if (delivered.priority() != 4) {
            parked.priority(delivered.priority());
        }
        Set<String> annotated = new HashSet<>();
        delivered.forEachAnnotation((name, value) -> {
            if (publishers(name)) {
                parked.annotation(name, value);
                annotated.add(name);
            }
        });
        List<String> dropped = new ArrayList<>();
        headers.forEach((name, value) -> {
            if (!Header.DROPPED_HEADERS.name().equals(name) && !annotated.contains(name)
                    && !write(parked, name, value)) {
                dropped.add(name);
            }
        });
        if (headers.get(Header.DROPPED_HEADERS.name()) instanceof List<?> earlier) {
            earlier.forEach(name -> dropped.add(String.valueOf(name)));
        }
        if (!dropped.isEmpty()) {
            parked.property(Header.DROPPED_HEADERS.name(), String.join("\n", dropped));
        }
        return parked;
    }

    /** The annotation that records a first failure at this time, for a retry the broker holds. */
    public static Map<String, Object> firstFailure(Instant at) {
        return Map.of(FIRST_FAILURE, Timestamps.format(at));
    }

    /**
     * When the message first failed, as its annotation says, as this project writes a time; null if it has not
     * failed over AMQP 1.0 yet. The broker keeps the annotation with the message through its retries; the retry
     * headers of a message published to an exchange are stale copies, and are not read.
     *
     * <p>Nor is the annotation on a message whose failures the queue has not counted: it came with the message from
     * elsewhere. A message the broker parked by its delivery limit keeps the annotation, which the parking lot shows
     * over AMQP 0.9.1 as a header, and a replay sends that header back, which RabbitMQ hands an AMQP 1.0 consumer as
     * the annotation again (4.3.6): read, it would make the replayed message's first failure one from before its
     * replay.
     */
    public static @Nullable String firstFailure(Message message) {
        return message.deliveryCount() > 0 && message.annotation(FIRST_FAILURE) instanceof String first ? first : null;
    }

    /** Writes one header as an application property; false if its value is not one AMQP 1.0 allows there. */
    private static boolean write(Message message, String name, @Nullable Object value) {
        if (value instanceof String text) {
            message.property(name, text);
        } else if (value instanceof Integer number) {
            message.property(name, number.intValue());
        } else if (value instanceof Long number) {
            message.property(name, number.longValue());
        } else if (value instanceof Short number) {
            message.property(name, number.shortValue());
        } else if (value instanceof Byte number) {
            message.property(name, number.byteValue());
        } else if (value instanceof Double number) {
            message.property(name, number.doubleValue());
        } else if (value instanceof Float number) {
            message.property(name, number.floatValue());
        } else if (value instanceof Boolean flag) {
            message.property(name, flag.booleanValue());
        } else if (value instanceof byte[] bytes) {
            message.property(name, bytes);
        } else if (value instanceof Date time) {
            message.propertyTimestamp(name, time.getTime());
        } else if (value instanceof UUID id) {
            message.property(name, id);
        } else if (value instanceof List<?> items && items.stream().allMatch(String.class::isInstance)) {
            message.property(name, String.join("\n", items.stream().map(String.class::cast).toList()));
        } else {
            return false;
        }
        return true;
    }

    /** Whether an annotation is one the publisher gave the message, rather than the broker or this runtime. */
    private static boolean publishers(String name) {
        return !NOT_THE_PUBLISHERS.contains(name) && !name.startsWith(BASIC_PROPERTY);
    }

    /**
     * An annotation's value as an AMQP 0.9.1 header would hold it: lists and maps of values, an unsigned number as
     * the long that holds it, and a symbol as its text (as any other value {@link #value} does not know).
     */
    private static @Nullable Object plain(@Nullable Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> plain = new LinkedHashMap<>();
            map.forEach((key, item) -> plain.put(String.valueOf(key), plain(item)));
            return Collections.unmodifiableMap(plain);
        }
        if (value instanceof List<?> list) {
            return list.stream().map(Amqp10Messages::plain).toList();
        }
        if (value instanceof Object[] array) {
            return Arrays.stream(array).map(Amqp10Messages::plain).toList();
        }
        if (value instanceof Number number && !isJavas(number)) {
            return number.longValue();
        }
        return value(value);
    }

    /** Whether a number is one of Java's own, rather than one of the client's unsigned types. */
    private static boolean isJavas(Number number) {
        return number instanceof Integer || number instanceof Long || number instanceof Short
                || number instanceof Byte || number instanceof Double || number instanceof Float;
    }

    /** An application property's value as the runtime's headers hold values: text, numbers, flags, bytes, times. */
    private static @Nullable Object value(@Nullable Object value) {
        if (value == null || value instanceof String || value instanceof Number || value instanceof Boolean
                || value instanceof Date) {
            return value;
        }
        if (value instanceof byte[] bytes) {
            return bytes.clone();
        }
        return value.toString();
    }

    private static @Nullable String text(@Nullable Object value) {
        if (value == null) {
            return null;
        }
        return value instanceof byte[] bytes ? HexFormat.of().formatHex(bytes) : value.toString();
    }
}
