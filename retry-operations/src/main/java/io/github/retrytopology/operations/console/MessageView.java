package io.github.retrytopology.operations.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.runtime.headers.MessageProperties;
import io.github.retrytopology.runtime.headers.RetryHeaders;
import io.github.retrytopology.runtime.parkinglot.ParkedMessage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Date;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/** A parked message as the console's pages show it: its summary in a list, and the whole of it on its own page. */
final class MessageView {

    /** The most bytes of a body shown: a parked message can be as large as the broker allows. */
    static final int MAX_BODY = 256 * 1024;
    /**
     * Said beside the broker's delivery count: the console reads a parking lot with consumers that give every
     * message back, and a quorum queue counts each of those deliveries, so the count runs ahead of the deliveries
     * to a service.
     */
    private static final Note CONSOLES_OWN_READS = new Note("counts the console's own reads too",
            "Each look at this message's group or page takes it from the parking lot and gives it back, and the "
                    + "broker counts that as a delivery.");
    private static final ObjectMapper JSON = new ObjectMapper();

    private MessageView() {
    }

    /** One message in the list of its group. */
    record Summary(String id, @Nullable String parkedAt, @Nullable String routingKey, int attempts, int replays,
            int copies, @Nullable String exception, @Nullable String exceptionMessage) {
    }

    /** The whole of one message. */
    record Detail(String id, @Nullable String parkedAt, @Nullable String reason, String detail,
            @Nullable String routingKey, int attempts, int replays, int copies, @Nullable String replayedBy,
            @Nullable String replayedAt, @Nullable String exception, @Nullable String exceptionMessage,
            List<String> failures, Map<String, String> properties, Map<String, String> headers,
            Map<String, Note> headerNotes, Body body) {
    }

    /** A few words to show beside a header's value, and a sentence that says why. */
    record Note(String note, String why) {
    }

    /**
     * A body as a page shows it.
     *
     * @param format {@code json} (pretty-printed), {@code text}, or {@code hex} (a dump, 16 bytes a line)
     * @param bytes its size
     * @param truncated whether only its first {@value #MAX_BODY} bytes are shown
     */
    record Body(String format, String text, int bytes, boolean truncated) {
    }

    static Summary summary(ParkedMessage message) {
        return new Summary(message.id(), time(message.parkedAt().orElse(null)), message.routingKey().orElse(null),
                message.attempts(), message.headers().replays(), message.copies(), message.exception().orElse(null),
                message.exceptionMessage().orElse(null));
    }

    static Detail detail(ParkedMessage message) {
        return new Detail(message.id(), time(message.parkedAt().orElse(null)),
                message.reason().map(ParkReason::id).or(message::brokerReason).orElse(null), message.detail(),
                message.routingKey().orElse(null), message.attempts(), message.headers().replays(), message.copies(),
                message.replayedBy().orElse(null), time(message.replayedAt().orElse(null)),
                message.exception().orElse(null), message.exceptionMessage().orElse(null), message.failures(),
                properties(message.properties()), headers(message.properties().headers()),
                headerNotes(message.properties().headers()), body(message));
    }

    private static @Nullable String time(@Nullable Instant instant) {
        return instant == null ? null : instant.toString();
    }

    /** The message's properties that are set: its content type and message id first, then the protocol's others. */
    private static Map<String, String> properties(MessageProperties properties) {
        Map<String, String> shown = new LinkedHashMap<>();
        if (properties.contentType() != null) {
            shown.put("contentType", properties.contentType());
        }
        if (properties.messageId() != null) {
            shown.put("messageId", properties.messageId());
        }
        shown.putAll(properties.other());
        return shown;
    }

    private static Map<String, String> headers(Map<String, Object> headers) {
        Map<String, String> shown = new TreeMap<>();
        headers.forEach((name, value) -> shown.put(name, display(value)));
        return shown;
    }

    private static Map<String, Note> headerNotes(Map<String, Object> headers) {
        return headers.containsKey(RetryHeaders.X_DELIVERY_COUNT)
                ? Map.of(RetryHeaders.X_DELIVERY_COUNT, CONSOLES_OWN_READS) : Map.of();
    }

    /** A header's value as text: bytes in hexadecimal, tables and arrays in brackets, times as instants. */
    static String display(@Nullable Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof byte[] bytes) {
            return HexFormat.of().formatHex(bytes);
        }
        if (value instanceof Date date) {
            return date.toInstant().toString();
        }
        if (value instanceof List<?> list) {
            return list.stream().map(MessageView::display).collect(Collectors.joining(", ", "[", "]"));
        }
        if (value instanceof Object[] array) {
            return display(Arrays.asList(array));
        }
        if (value instanceof Map<?, ?> map) {
            return map.entrySet().stream().map(entry -> entry.getKey() + ": " + display(entry.getValue()))
                    .collect(Collectors.joining(", ", "{", "}"));
        }
        return value.toString();
    }

    /** The body pretty-printed if it is JSON, as text if it is UTF-8 text, else as a hex dump. */
    static Body body(ParkedMessage message) {
        byte[] body = message.body();
        boolean truncated = body.length > MAX_BODY;
        byte[] shown = truncated ? Arrays.copyOf(body, MAX_BODY) : body;
        if (!truncated) {
            try {
                JsonNode tree = JSON.readTree(body);
                if (tree != null && !tree.isMissingNode()) {
                    return new Body("json", JSON.writerWithDefaultPrettyPrinter().writeValueAsString(tree), body.length,
                            false);
                }
            } catch (IOException notJson) {
                // shown as text or bytes
            }
        }
        try {
            String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(shown)).toString();
            if (text.chars().noneMatch(c -> c < 0x20 && c != '\n' && c != '\r' && c != '\t')) {
                return new Body("text", text, body.length, truncated);
            }
        } catch (CharacterCodingException binary) {
            // a truncated body may end inside a character; shown as bytes all the same
        }
        return new Body("hex", hex(shown), body.length, truncated);
    }

    /** A dump: the offset, 16 bytes in hexadecimal, and those of them that are printable ASCII. */
    static String hex(byte[] bytes) {
        StringBuilder dump = new StringBuilder(bytes.length * 4 + 16);
        for (int line = 0; line < bytes.length; line += 16) {
            dump.append(String.format("%08x  ", line));
            StringBuilder ascii = new StringBuilder(16);
            for (int i = line; i < line + 16; i++) {
                if (i < bytes.length) {
                    int b = bytes[i] & 0xff;
                    dump.append(String.format("%02x ", b));
                    ascii.append(b >= 0x20 && b < 0x7f ? (char) b : '.');
                } else {
                    dump.append("   ");
                }
                if (i == line + 7) {
                    dump.append(' ');
                }
            }
            dump.append(' ').append(ascii).append('\n');
        }
        return dump.toString();
    }
}
