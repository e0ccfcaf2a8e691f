package io.github.retrytopology.runtime.headers;

import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.model.headers.DeathField;
import io.github.retrytopology.model.headers.DeathReason;
import io.github.retrytopology.model.headers.Header;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The headers this project keeps on a message, as read on its delivery; the headers themselves, and what each
 * holds, are {@link Header}'s. Attempts are counted in {@link Header#ATTEMPTS}, never from {@code x-death}; the
 * broker's headers are only read, to cross-check and to tell a crashed consumer apart.
 *
 * <p>These headers are trusted only on a message that came back from one of the service's own tier queues,
 * or that a replay or a migration sent: a publisher that copies the headers of a message it consumed into a new
 * one would otherwise make its new message look like a late attempt of another routing key. See {@link #arrival}.
 *
 * <p>Values are read as plain Java values: text as a {@code String} (or UTF-8 bytes), numbers as {@code Number}s,
 * arrays as {@code List}s and tables as {@code Map}s, as a protocol's adapter hands them over. A client's own string
 * type, such as the AMQP 0.9.1 Java client's {@code LongString}, reads as absent: the consumer and the parking lot
 * turn it into a {@code String} before a message's headers reach this class.
 *
 * <p>How the headers change on each failure, park and replay is the runtime's own, and not part of its API.
 * Exception messages and the failure history are bounded, so that the headers of a message that failed many times
 * still fit in one frame.
 */
public final class RetryHeaders {

    // Names of headers, kept for the consumer, the console and their tests, which read a table by name; each is its
    // Header's name. New code takes the Header itself.
    /** {@link Header#ATTEMPTS}'s name. */
    public static final String ATTEMPTS = Header.ATTEMPTS.name();
    /** {@link Header#FIRST_FAILURE}'s name. */
    public static final String FIRST_FAILURE = Header.FIRST_FAILURE.name();
    /** {@link Header#LAST_FAILURE}'s name. */
    public static final String LAST_FAILURE = Header.LAST_FAILURE.name();
    /** {@link Header#ORIGINAL_EXCHANGE}'s name. */
    public static final String ORIGINAL_EXCHANGE = Header.ORIGINAL_EXCHANGE.name();
    /** {@link Header#ORIGINAL_ROUTING_KEY}'s name. */
    public static final String ORIGINAL_ROUTING_KEY = Header.ORIGINAL_ROUTING_KEY.name();
    /** {@link Header#EXCEPTION}'s name. */
    public static final String EXCEPTION = Header.EXCEPTION.name();
    /** {@link Header#FAILURES}'s name. */
    public static final String FAILURES = Header.FAILURES.name();
    /** {@link Header#PARK_REASON}'s name. */
    public static final String PARK_REASON = Header.PARK_REASON.name();
    /** {@link Header#ADOPTED_FROM}'s name. */
    public static final String ADOPTED_FROM = Header.ADOPTED_FROM.name();
    /** {@link Header#DROPPED_HEADERS}'s name. */
    public static final String DROPPED_HEADERS = Header.DROPPED_HEADERS.name();
    /** {@link Header#X_DELIVERY_COUNT}'s name. */
    public static final String X_DELIVERY_COUNT = Header.X_DELIVERY_COUNT.name();
    /** {@link Header#X_ACQUIRED_COUNT}'s name. */
    public static final String X_ACQUIRED_COUNT = Header.X_ACQUIRED_COUNT.name();

    /** The longest exception message kept, in characters. */
    public static final int MAX_MESSAGE_LENGTH = 1000;
    /** The most failure lines kept; older ones are dropped. */
    public static final int MAX_HISTORY = 10;
    /** The longest failure line kept, in characters. */
    private static final int MAX_HISTORY_LINE = 300;

    /** Every header this project writes, by name, which it trusts only on messages that it sent itself. */
    private static final Set<String> OURS = Header.OURS.stream().map(Header::name)
            .collect(Collectors.toUnmodifiableSet());

    /** Where a delivery came from, which decides whether this project's headers on it are its own. */
    public enum Provenance {
        /** Published through an exchange, or straight to the queue by someone else: any retry header is stale. */
        PUBLISHED,
        /** Dead-lettered back from one of the service's own tier queues, where a retry sent it. */
        RETRIED,
        /** Sent back to the service's queue by a replay from its parking lot. */
        REPLAYED,
        /**
         * Moved into the service's queue by a migration from the retry topology the team ran before, with the attempts
         * it had made there.
         */
        ADOPTED
    }

    private final Map<String, Object> headers;
    private final Map<String, Object> delivered;
    private final Provenance provenance;

    private RetryHeaders(@Nullable Map<String, Object> headers, @Nullable Map<String, Object> delivered,
            Provenance provenance) {
        this.headers = headers == null ? Map.of() : headers;
        this.delivered = delivered == null ? this.headers : delivered;
        this.provenance = provenance;
    }

    /** Reads the headers of a message as they are, trusting them all; null headers read as none. */
    public static RetryHeaders of(@Nullable Map<String, Object> headers) {
        return new RetryHeaders(headers, null, Provenance.RETRIED);
    }

    /**
     * Reads the headers of a message as its consumer received it. This project's headers count only on a message
     * that came back from one of the service's tier queues (the default exchange delivered it, and the broker's
     * latest {@code x-death} entry is an expiry in one of {@code tierQueues}), from a replay (the default
     * exchange, with {@link Header#REPLAYS}) or from a migration (the default exchange, with
     * {@link Header#ADOPTED_FROM}); on anything else they are stale copies, read as absent and never written back.
     *
     * @param headers the headers as delivered, a table nobody changes afterwards: a protocol adapter's own copy, its
     *     text as {@code String}s (the AMQP 0.9.1 adapter's is {@code amqp091.Received.headers}), which this keeps
     *     without copying it again
     * @param exchange the exchange that delivered the message
     * @param tierQueues the names of the service's tier queues
     */
    public static RetryHeaders arrival(@Nullable Map<String, Object> headers, String exchange, Set<String> tierQueues) {
        if (headers == null || headers.isEmpty()) {
            return new RetryHeaders(Map.of(), null, Provenance.PUBLISHED);
        }
        Provenance provenance = provenance(headers, exchange, tierQueues);
        Map<String, Object> trusted = headers;
        if (provenance == Provenance.PUBLISHED && headers.keySet().stream().anyMatch(OURS::contains)) {
            Map<String, Object> fresh = new HashMap<>(headers);
            fresh.keySet().removeAll(OURS);
            trusted = Collections.unmodifiableMap(fresh);
        }
        return new RetryHeaders(trusted, headers, provenance);
    }

    private static Provenance provenance(Map<String, Object> headers, String exchange, Set<String> tierQueues) {
        if (!exchange.isEmpty()) {
            return Provenance.PUBLISHED;
        }
        List<?> deaths = Header.X_DEATH.in(headers).orElse(List.of());
        if (!deaths.isEmpty() && deaths.get(0) instanceof Map<?, ?> last
                && text(last.get(DeathField.REASON.name())).filter(DeathReason.EXPIRED.id()::equals).isPresent()
                && text(last.get(DeathField.QUEUE.name())).filter(tierQueues::contains).isPresent()) {
            return Provenance.RETRIED;
        }
        if (Header.REPLAYS.in(headers).isPresent()) {
            return Provenance.REPLAYED;
        }
        if (text(headers.get(Header.ADOPTED_FROM.name())).isPresent()) {
            return Provenance.ADOPTED;
        }
        return Provenance.PUBLISHED;
    }

    /** Where the message came from; {@link Provenance#RETRIED} for headers read with {@link #of}. */
    public Provenance provenance() {
        return provenance;
    }

    /** Every header as the message arrived, stale copies of this project's included; unmodifiable. */
    public Map<String, Object> delivered() {
        return delivered;
    }

    /** Failed deliveries so far: 0 for a message that never failed. */
    public int attempts() {
        return Header.ATTEMPTS.in(headers).map(number -> Math.max(0, number.intValue())).orElse(0);
    }

    /** When the message failed for the first time; empty if it never failed, or that is not known. */
    public Optional<Instant> firstFailure() {
        return instant(Header.FIRST_FAILURE);
    }

    /** When the message failed for the last time; its first failure, if it failed once. */
    public Optional<Instant> lastFailure() {
        return instant(Header.LAST_FAILURE).or(this::firstFailure);
    }

    /** When the message was parked. */
    public Optional<Instant> parkedAt() {
        return instant(Header.PARKED_AT);
    }

    /** The exchange the message was first published to. */
    public Optional<String> originalExchange() {
        return string(Header.ORIGINAL_EXCHANGE);
    }

    /** The routing key the message was first published with. */
    public Optional<String> originalRoutingKey() {
        return string(Header.ORIGINAL_ROUTING_KEY);
    }

    /** The class of the last failure. */
    public Optional<String> exception() {
        return string(Header.EXCEPTION);
    }

    /** The message of the last failure, bounded. */
    public Optional<String> exceptionMessage() {
        return string(Header.EXCEPTION_MESSAGE);
    }

    /** Why the message was parked, if this project parked it. */
    public Optional<ParkReason> parkReason() {
        return string(Header.PARK_REASON).flatMap(id -> {
            try {
                return Optional.of(ParkReason.fromId(id));
            } catch (IllegalArgumentException unknown) {
                return Optional.empty();
            }
        });
    }

    /** Why the message was parked, in a sentence. */
    public Optional<String> parkDetail() {
        return string(Header.PARK_DETAIL);
    }

    /** The publisher's {@code expiration}, taken off when the message was first republished. */
    public Optional<String> originalExpiration() {
        return string(Header.ORIGINAL_EXPIRATION);
    }

    /** Who the message is across its retries, if it has failed before and its publisher set no message id. */
    public Optional<String> messageId() {
        return string(Header.MESSAGE_ID);
    }

    /** The publish sequence number of the send that carried the message here, on its channel. */
    public Optional<Long> publishId() {
        return Header.PUBLISH_ID.in(headers).map(Number::longValue);
    }

    /** How many times the message was replayed from the parking lot. */
    public int replays() {
        return Header.REPLAYS.in(headers).map(Number::intValue).orElse(0);
    }

    /** The queue of the retry topology a team ran before, from which a migration moved the message, if one did. */
    public Optional<String> adoptedFrom() {
        return string(Header.ADOPTED_FROM);
    }

    /** Who replayed the message last, if the replay named them. */
    public Optional<String> replayedBy() {
        return string(Header.REPLAYED_BY);
    }

    /** When the message was replayed last. */
    public Optional<Instant> replayedAt() {
        return instant(Header.REPLAYED_AT);
    }

    /** The failure lines, oldest first. */
    public List<String> failures() {
        List<String> lines = new ArrayList<>(earlierFailures());
        lastFailureLine().ifPresent(lines::add);
        return lines;
    }

    /** The lines of the failures before the last, as {@link Header#FAILURES} holds them. */
    private List<String> earlierFailures() {
        List<?> list = Header.FAILURES.in(headers).orElse(List.of());
        List<String> lines = new ArrayList<>(list.size());
        for (Object item : list) {
            text(item).ifPresent(lines::add);
        }
        return lines;
    }

    /** The line of the last failure, made from the headers that describe it. */
    private Optional<String> lastFailureLine() {
        int attempts = attempts();
        Optional<String> exception = exception();
        if (attempts == 0 || exception.isEmpty()) {
            return Optional.empty();
        }
        String message = exceptionMessage().orElse("");
        String at = string(Header.LAST_FAILURE).or(() -> string(Header.FIRST_FAILURE)).orElse("?");
        return Optional.of(failureLine(attempts, at, exception.get() + (message.isEmpty() ? "" : ": " + message)));
    }

    private static String failureLine(int attempt, String at, String failure) {
        return truncate("attempt " + attempt + " at " + at + ": " + failure, MAX_HISTORY_LINE);
    }

    /** The broker's count of deliveries that ended without an answer, on quorum queues. */
    public int deliveryCount() {
        return Header.X_DELIVERY_COUNT.in(headers).map(Number::intValue).orElse(0);
    }

    /** The broker's dead-letter history, most recent first. */
    public List<Death> deaths() {
        List<?> list = Header.X_DEATH.in(headers).orElse(List.of());
        List<Death> deaths = new ArrayList<>();
        for (Object entry : list) {
            if (entry instanceof Map<?, ?> table) {
                deaths.add(Death.of(table));
            }
        }
        return List.copyOf(deaths);
    }

    /**
     * One entry of {@code x-death}: the broker dead-lettered the message from {@code queue} for
     * {@code reason}, {@code count} times, the last at {@code time}; {@code originalExpiration} is the
     * message's own expiration, which the broker takes off when it dead-letters a message.
     */
    public record Death(String queue, String reason, long count, String exchange, List<String> routingKeys,
            Optional<Instant> time, Optional<String> originalExpiration) {

        static Death of(Map<?, ?> table) {
            List<String> keys = DeathField.ROUTING_KEYS.in(table)
                    .map(list -> list.stream().map(RetryHeaders::text).flatMap(Optional::stream).toList())
                    .orElse(List.of());
            return new Death(text(table.get(DeathField.QUEUE.name())).orElse(""),
                    text(table.get(DeathField.REASON.name())).orElse(""),
                    DeathField.COUNT.in(table).map(Number::longValue).orElse(0L),
                    text(table.get(DeathField.EXCHANGE.name())).orElse(""), keys,
                    DeathField.TIME.in(table).map(Date::toInstant),
                    text(table.get(DeathField.ORIGINAL_EXPIRATION.name())));
        }
    }

    private Optional<String> string(Header<String> header) {
        return text(headers.get(header.name()));
    }

    private Optional<Instant> instant(Header<String> header) {
        return string(header).flatMap(text -> {
            try {
                return Optional.of(Instant.parse(text));
            } catch (DateTimeParseException notATime) {
                return Optional.empty();
            }
        });
    }

    static Optional<String> text(Object value) {
        if (value instanceof String text) {
            return Optional.of(text);
        }
        if (value instanceof byte[] bytes) {
            return Optional.of(new String(bytes, StandardCharsets.UTF_8));
        }
        return Optional.empty();
    }

    private static String truncate(String text, int length) {
        return text.length() <= length ? text : text.substring(0, length - 1) + "…";
    }
}
