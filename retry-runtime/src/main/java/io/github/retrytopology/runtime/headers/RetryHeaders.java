package io.github.retrytopology.runtime.headers;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.LongString;
import io.github.retrytopology.model.decision.Decision;
import io.github.retrytopology.model.decision.ParkReason;
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

/**
 * The headers this project keeps on a message, and how they change on each failure, park and replay.
 *
 * <p>Attempts are counted in {@value #ATTEMPTS}, never from {@code x-death}: RabbitMQ 3.13.0 to 3.13.2
 * stopped counting republished messages there, and RabbitMQ 4 never reads an {@code x-death} that a client
 * publishes. The broker's headers are only read, to cross-check and to tell a crashed consumer apart.
 *
 * <p>These headers are trusted only on a message that came back from one of the service's own tier queues,
 * or that a replay or a migration sent: a publisher that copies the headers of a message it consumed into a new
 * one would otherwise make its new message look like a late attempt of another routing key. See {@link #arrival}.
 *
 * <p>Every value this project writes is a string or a number, readable in the management UI. Times are
 * ISO-8601 instants. Exception messages and the failure history are bounded, so that the headers of a message
 * that failed many times still fit in one frame.
 */
public final class RetryHeaders {

    /** How many deliveries of the message have failed so far; the next delivery is attempt this plus one. */
    public static final String ATTEMPTS = "retry-attempts";
    /**
     * When the message failed for the first time; absent where that is not known: a message whose earlier attempts
     * the broker delayed (they left no header) has only {@value #LAST_FAILURE}.
     */
    public static final String FIRST_FAILURE = "retry-first-failure";
    /** When the message failed for the last time; from its second failure on. */
    public static final String LAST_FAILURE = "retry-last-failure";
    /** The exchange the message was first published to. */
    public static final String ORIGINAL_EXCHANGE = "retry-original-exchange";
    /** The routing key the message was first published with, by which its handler is chosen. */
    public static final String ORIGINAL_ROUTING_KEY = "retry-original-routing-key";
    /** The class of the last failure. */
    public static final String EXCEPTION = "retry-exception";
    /** The message of the last failure, at most {@value #MAX_MESSAGE_LENGTH} characters. */
    public static final String EXCEPTION_MESSAGE = "retry-exception-message";
    /**
     * One line per failure before the last, oldest first: the last failure is in the other headers. With the
     * last, at most {@value #MAX_HISTORY} lines; see {@link #failures()}.
     */
    public static final String FAILURES = "retry-failures";
    /** Why the message was parked: the id of a {@link ParkReason}. */
    public static final String PARK_REASON = "retry-park-reason";
    /** Why the message was parked, in a sentence. */
    public static final String PARK_DETAIL = "retry-park-detail";
    /** When the message was parked. */
    public static final String PARKED_AT = "retry-parked-at";
    /** How many times the message was replayed from the parking lot. */
    public static final String REPLAYS = "retry-replays";
    /**
     * The queue of the retry topology a team ran before adopting this one, from which a migration moved the message
     * through the default exchange, carrying its attempts over into these headers: they count on such a message as
     * on one a replay sent.
     */
    public static final String ADOPTED_FROM = "retry-adopted-from";
    /** Who replayed the message from the parking lot last, as the replay named them. */
    public static final String REPLAYED_BY = "retry-replayed-by";
    /** When the message was replayed from the parking lot last. */
    public static final String REPLAYED_AT = "retry-replayed-at";
    /**
     * The publish sequence number of the send that carried the message, on its channel: a message the broker
     * returns is matched to its send by it.
     */
    public static final String PUBLISH_ID = "retry-publish-id";
    /**
     * The publisher's {@code expiration}, which a republished message no longer carries: a message must not
     * expire out of the parking lot, nor leave a tier before the tier's delay.
     */
    public static final String ORIGINAL_EXPIRATION = "retry-original-expiration";
    /**
     * Who the message is across its retries when its publisher set no {@code message-id}: given at its first
     * failure and kept. Two parked copies with the same identity and attempt are twins of one message.
     */
    public static final String MESSAGE_ID = "retry-message-id";

    /**
     * The publisher's headers that a message parked because it could not be republished whole no longer carries,
     * each as its name and size: they left no room in a frame for the park's.
     */
    public static final String DROPPED_HEADERS = "retry-dropped-headers";

    /** The broker's dead-letter history. */
    public static final String X_DEATH = "x-death";
    /** The broker's count of deliveries of a quorum queue message that ended without an answer. */
    public static final String X_DELIVERY_COUNT = "x-delivery-count";
    /** The broker's count of every earlier delivery of a quorum queue message, RabbitMQ 4.3 and later. */
    public static final String X_ACQUIRED_COUNT = "x-acquired-count";

    /** The most bytes a publish id takes in a header table: its key, a type byte and a long. */
    private static final int PUBLISH_ID_BYTES = 1 + PUBLISH_ID.length() + 1 + 8;

    /** The longest exception message kept, in characters. */
    public static final int MAX_MESSAGE_LENGTH = 1000;
    /** The most failure lines kept; older ones are dropped. */
    public static final int MAX_HISTORY = 10;
    private static final int MAX_HISTORY_LINE = 300;

    /** Every header this project writes, which it trusts only on messages that it sent itself. */
    private static final Set<String> OURS = Set.of(ATTEMPTS, FIRST_FAILURE, LAST_FAILURE, ORIGINAL_EXCHANGE,
            ORIGINAL_ROUTING_KEY, EXCEPTION, EXCEPTION_MESSAGE, FAILURES, PARK_REASON, PARK_DETAIL, PARKED_AT, REPLAYS,
            REPLAYED_BY, REPLAYED_AT, ADOPTED_FROM, PUBLISH_ID, ORIGINAL_EXPIRATION, MESSAGE_ID, DROPPED_HEADERS);
    /** Headers that describe one failure and go when a message is replayed. */
    private static final Set<String> ATTEMPT_HEADERS = Set.of(ATTEMPTS, FIRST_FAILURE, LAST_FAILURE, EXCEPTION,
            EXCEPTION_MESSAGE, FAILURES, PARK_REASON, PARK_DETAIL, PARKED_AT, PUBLISH_ID);
    /** Headers the broker owns, which a published message must not carry over. */
    private static final Set<String> BROKER_HEADERS = Set.of(X_DELIVERY_COUNT, X_ACQUIRED_COUNT);
    /** Headers of the broker's dead-letter history, reset on replay. */
    private static final Set<String> DEATH_HEADERS = Set.of(X_DEATH, "x-first-death-exchange", "x-first-death-queue",
            "x-first-death-reason", "x-last-death-exchange", "x-last-death-queue", "x-last-death-reason");

    private static final String EXPIRED = "expired";

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

    private RetryHeaders(Map<String, Object> headers, Map<String, Object> delivered, Provenance provenance) {
        this.headers = headers == null ? Map.of() : headers;
        this.delivered = delivered == null ? this.headers : delivered;
        this.provenance = provenance;
    }

    /** Reads the headers of a message as they are, trusting them all; null headers read as none. */
    public static RetryHeaders of(Map<String, Object> headers) {
        return new RetryHeaders(headers, null, Provenance.RETRIED);
    }

    /**
     * Reads the headers of a message as its consumer received it. This project's headers count only on a message
     * that came back from one of the service's tier queues (the default exchange delivered it, and the broker's
     * latest {@code x-death} entry is an expiry in one of {@code tierQueues}), from a replay (the default
     * exchange, with {@value #REPLAYS}) or from a migration (the default exchange, with {@value #ADOPTED_FROM}); on
     * anything else they are stale copies, read as absent and never written back.
     *
     * @param headers the headers as delivered; read now, so that later changes to the map change nothing
     * @param exchange the exchange that delivered the message
     * @param tierQueues the names of the service's tier queues
     */
    public static RetryHeaders arrival(Map<String, Object> headers, String exchange, Set<String> tierQueues) {
        if (headers == null || headers.isEmpty()) {
            return new RetryHeaders(Map.of(), null, Provenance.PUBLISHED);
        }
        Map<String, Object> snapshot = Snapshot.of(headers);
        Provenance provenance = provenance(snapshot, exchange, tierQueues);
        Map<String, Object> trusted = snapshot;
        if (provenance == Provenance.PUBLISHED && snapshot.keySet().stream().anyMatch(OURS::contains)) {
            Map<String, Object> fresh = new HashMap<>(snapshot);
            fresh.keySet().removeAll(OURS);
            trusted = Collections.unmodifiableMap(fresh);
        }
        return new RetryHeaders(trusted, snapshot, provenance);
    }

    private static Provenance provenance(Map<String, Object> headers, String exchange, Set<String> tierQueues) {
        if (!exchange.isEmpty()) {
            return Provenance.PUBLISHED;
        }
        if (headers.get(X_DEATH) instanceof List<?> deaths && !deaths.isEmpty() && deaths.get(0) instanceof Map<?, ?> last
                && text(last.get("reason")).filter(EXPIRED::equals).isPresent()
                && text(last.get("queue")).filter(tierQueues::contains).isPresent()) {
            return Provenance.RETRIED;
        }
        if (headers.get(REPLAYS) instanceof Number) {
            return Provenance.REPLAYED;
        }
        if (text(headers.get(ADOPTED_FROM)).isPresent()) {
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
        Object value = headers.get(ATTEMPTS);
        return value instanceof Number number ? Math.max(0, number.intValue()) : 0;
    }

    /** When the message failed for the first time; empty if it never failed, or that is not known. */
    public Optional<Instant> firstFailure() {
        return instant(FIRST_FAILURE);
    }

    /** When the message failed for the last time; its first failure, if it failed once. */
    public Optional<Instant> lastFailure() {
        return instant(LAST_FAILURE).or(this::firstFailure);
    }

    /** When the message was parked. */
    public Optional<Instant> parkedAt() {
        return instant(PARKED_AT);
    }

    /** The exchange the message was first published to. */
    public Optional<String> originalExchange() {
        return string(ORIGINAL_EXCHANGE);
    }

    /** The routing key the message was first published with. */
    public Optional<String> originalRoutingKey() {
        return string(ORIGINAL_ROUTING_KEY);
    }

    /** The class of the last failure. */
    public Optional<String> exception() {
        return string(EXCEPTION);
    }

    /** The message of the last failure, bounded. */
    public Optional<String> exceptionMessage() {
        return string(EXCEPTION_MESSAGE);
    }

    /** Why the message was parked, if this project parked it. */
    public Optional<ParkReason> parkReason() {
        return string(PARK_REASON).flatMap(id -> {
            try {
                return Optional.of(ParkReason.fromId(id));
            } catch (IllegalArgumentException unknown) {
                return Optional.empty();
            }
        });
    }

    /** Why the message was parked, in a sentence. */
    public Optional<String> parkDetail() {
        return string(PARK_DETAIL);
    }

    /** The publisher's {@code expiration}, taken off when the message was first republished. */
    public Optional<String> originalExpiration() {
        return string(ORIGINAL_EXPIRATION);
    }

    /** Who the message is across its retries, if it has failed before and its publisher set no message id. */
    public Optional<String> messageId() {
        return string(MESSAGE_ID);
    }

    /** The publish sequence number of the send that carried the message here, on its channel. */
    public Optional<Long> publishId() {
        return headers.get(PUBLISH_ID) instanceof Number number ? Optional.of(number.longValue()) : Optional.empty();
    }

    /** How many times the message was replayed from the parking lot. */
    public int replays() {
        Object value = headers.get(REPLAYS);
        return value instanceof Number number ? number.intValue() : 0;
    }

    /** The queue of the retry topology a team ran before, from which a migration moved the message, if one did. */
    public Optional<String> adoptedFrom() {
        return string(ADOPTED_FROM);
    }

    /** Who replayed the message last, if the replay named them. */
    public Optional<String> replayedBy() {
        return string(REPLAYED_BY);
    }

    /** When the message was replayed last. */
    public Optional<Instant> replayedAt() {
        return instant(REPLAYED_AT);
    }

    /** The failure lines, oldest first. */
    public List<String> failures() {
        List<String> lines = new ArrayList<>(earlierFailures());
        lastFailureLine().ifPresent(lines::add);
        return lines;
    }

    /** The lines of the failures before the last, as {@value #FAILURES} holds them. */
    private List<String> earlierFailures() {
        Object value = headers.get(FAILURES);
        if (!(value instanceof List<?> list)) {
            return List.of();
        }
        List<String> lines = new ArrayList<>(list.size());
        for (Object item : list) {
            text(item).ifPresent(lines::add);
        }
        return lines;
    }

    /** The failure lines to keep on the next failure, oldest first: the last ones, leaving room for one more. */
    private List<String> history() {
        List<String> earlier = earlierFailures();
        Optional<String> previous = lastFailureLine();
        if (earlier.isEmpty() && previous.isEmpty()) {
            return List.of();
        }
        List<String> lines = new ArrayList<>(earlier.size() + 1);
        lines.addAll(earlier);
        previous.ifPresent(lines::add);
        return new ArrayList<>(lines.subList(Math.max(0, lines.size() - (MAX_HISTORY - 1)), lines.size()));
    }

    /** The line of the last failure, made from the headers that describe it. */
    private Optional<String> lastFailureLine() {
        int attempts = attempts();
        Optional<String> exception = exception();
        if (attempts == 0 || exception.isEmpty()) {
            return Optional.empty();
        }
        String message = exceptionMessage().orElse("");
        return Optional.of(failureLine(attempts, string(LAST_FAILURE).or(() -> string(FIRST_FAILURE)).orElse("?"),
                exception.get() + (message.isEmpty() ? "" : ": " + message)));
    }

    private static String failureLine(int attempt, String at, String failure) {
        return truncate("attempt " + attempt + " at " + at + ": " + failure, MAX_HISTORY_LINE);
    }

    /** The broker's count of deliveries that ended without an answer, on quorum queues. */
    public int deliveryCount() {
        Object value = headers.get(X_DELIVERY_COUNT);
        return value instanceof Number number ? number.intValue() : 0;
    }

    /** The broker's dead-letter history, most recent first. */
    public List<Death> deaths() {
        Object value = headers.get(X_DEATH);
        if (!(value instanceof List<?> list)) {
            return List.of();
        }
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
            Object count = table.get("count");
            List<String> keys = table.get("routing-keys") instanceof List<?> list
                    ? list.stream().map(RetryHeaders::text).flatMap(Optional::stream).toList()
                    : List.of();
            Optional<Instant> time = table.get("time") instanceof Date date ? Optional.of(date.toInstant()) : Optional.empty();
            return new Death(text(table.get("queue")).orElse(""), text(table.get("reason")).orElse(""),
                    count instanceof Number number ? number.longValue() : 0,
                    text(table.get("exchange")).orElse(""), keys, time, text(table.get("original-expiration")));
        }
    }

    /**
     * Returns the headers of a message to republish after its attempt {@code attempt} failed with
     * {@code failure}: the original headers, less what the broker owns, with the attempt counted and the
     * failure recorded; parked, if the decision parks it. They fit in {@code maxBytes} as they are sent: with
     * what {@link #outgoing} adds, the publisher's expiration and an identity, and the publish id of each send.
     *
     * @param properties the failed delivery's properties, whose expiration and message id the republish carries
     * @param envelope how the failed delivery arrived, for its exchange and routing key on a first failure
     * @param maxBytes the most bytes the headers may take, to fit the connection's frame size
     */
    public Map<String, Object> afterFailure(AMQP.BasicProperties properties, Envelope envelope, int attempt,
            Throwable failure, Decision decision, Instant now, int maxBytes) {
        Map<String, Object> next = new HashMap<>(headers.size() * 2 + 16);
        next.putAll(headers);
        BROKER_HEADERS.forEach(next::remove);
        String at = Timestamps.format(now);
        String exception = failure.getClass().getName();
        String message = truncate(failure.getMessage() == null ? "" : failure.getMessage(), MAX_MESSAGE_LENGTH);
        next.put(ATTEMPTS, attempt);
        // Where the broker delayed the earlier attempts, they left nothing on the message: this failure is then the
        // last, and when the first was is not known.
        boolean first = attempt == 1 && !next.containsKey(FIRST_FAILURE);
        if (first) {
            next.put(FIRST_FAILURE, at);
            next.remove(LAST_FAILURE);
        } else {
            next.put(LAST_FAILURE, at);
        }
        String timeKey = first ? FIRST_FAILURE : LAST_FAILURE;
        next.putIfAbsent(ORIGINAL_EXCHANGE, envelope.getExchange());
        next.putIfAbsent(ORIGINAL_ROUTING_KEY, envelope.getRoutingKey());
        next.put(EXCEPTION, exception);
        next.put(EXCEPTION_MESSAGE, message);
        carry(properties, next);
        // A bound of the size, counted as the headers are made rather than over the table: what the message carried,
        // and on top of it everything this may have added or replaced, and will add to each send.
        int bound = sizeBound(headers) + entryBound(ATTEMPTS, attempt) + entryBound(timeKey, at)
                + entryBound(ORIGINAL_EXCHANGE, envelope.getExchange())
                + entryBound(ORIGINAL_ROUTING_KEY, envelope.getRoutingKey()) + entryBound(EXCEPTION, exception)
                + entryBound(EXCEPTION_MESSAGE, message) + entryBound(ORIGINAL_EXPIRATION, next.get(ORIGINAL_EXPIRATION))
                + entryBound(MESSAGE_ID, next.get(MESSAGE_ID)) + PUBLISH_ID_BYTES;
        if (decision instanceof Decision.Park park) {
            putPark(next, park, at);
            bound += entryBound(PARK_REASON, next.get(PARK_REASON)) + entryBound(PARK_DETAIL, next.get(PARK_DETAIL))
                    + entryBound(PARKED_AT, at);
        }
        // The failure before this one, if any, joins the history; this one is described by the other headers.
        List<String> kept = history();
        if (kept.isEmpty()) {
            next.remove(FAILURES);
        } else {
            next.put(FAILURES, Collections.unmodifiableList(kept));
            bound += entryBound(FAILURES, kept);
        }
        if (bound <= maxBytes) {
            return next;
        }
        // Drop the oldest lines, then the exception message, until the headers fit in a frame.
        int room = maxBytes - PUBLISH_ID_BYTES;
        while (size(next) > room && !kept.isEmpty()) {
            kept = new ArrayList<>(kept.subList(1, kept.size()));
            next.put(FAILURES, Collections.unmodifiableList(kept));
        }
        if (size(next) > room) {
            next.put(EXCEPTION_MESSAGE, "");
        }
        return next;
    }

    /**
     * Returns the headers of a message parked without a failure to record, such as one no handler takes: the
     * original headers with the park reason.
     */
    public Map<String, Object> parked(Envelope envelope, Decision.Park park, Instant now) {
        Map<String, Object> next = new HashMap<>(headers);
        BROKER_HEADERS.forEach(next::remove);
        next.putIfAbsent(ORIGINAL_EXCHANGE, envelope.getExchange());
        next.putIfAbsent(ORIGINAL_ROUTING_KEY, envelope.getRoutingKey());
        putPark(next, park, Timestamps.format(now));
        return next;
    }

    /**
     * Returns the headers of a message parked because no republish of it fits the connection's frame: its
     * publisher's headers, the largest dropped first until the park's fit in {@code maxBytes} as sent, and named in
     * {@value #DROPPED_HEADERS}. The body and the other properties are kept whole.
     */
    public Map<String, Object> parkedWithoutRoom(AMQP.BasicProperties properties, Envelope envelope,
            Decision.Park park, Instant now, int maxBytes) {
        Map<String, Object> next = parked(envelope, park, now);
        carry(properties, next);
        List<String> dropped = new ArrayList<>();
        int room = maxBytes - PUBLISH_ID_BYTES;
        while (size(next) + valueSize(dropped, true) + 2 + DROPPED_HEADERS.length() > room) {
            Map.Entry<String, Object> largest = null;
            int largestSize = 0;
            for (Map.Entry<String, Object> entry : next.entrySet()) {
                int entrySize = entrySize(entry.getKey(), entry.getValue(), true);
                if (!OURS.contains(entry.getKey()) && entrySize > largestSize) {
                    largest = entry;
                    largestSize = entrySize;
                }
            }
            if (largest == null) {
                next.remove(FAILURES);
                next.put(EXCEPTION_MESSAGE, "");
                break;
            }
            dropped.add(truncate(largest.getKey(), MAX_HISTORY_LINE) + " (" + largestSize + " bytes)");
            next.remove(largest.getKey());
        }
        if (!dropped.isEmpty()) {
            next.put(DROPPED_HEADERS, Collections.unmodifiableList(dropped));
        }
        return next;
    }

    /**
     * Returns the headers of a parked message replayed to its service: the attempt count and every failure
     * header reset, the broker's dead-letter history dropped, the original exchange and routing key kept (taken
     * from {@code x-death} for a message the broker parked itself), and the replay counted, with its time and
     * who replayed it (else no one, and an older replay's name goes).
     */
    public Map<String, Object> forReplay(Instant now, Optional<String> replayedBy) {
        Map<String, Object> next = new HashMap<>(headers);
        if (!next.containsKey(ORIGINAL_ROUTING_KEY)) {
            List<Death> deaths = deaths();
            if (!deaths.isEmpty()) {
                Death first = deaths.get(deaths.size() - 1);
                next.put(ORIGINAL_EXCHANGE, first.exchange());
                if (!first.routingKeys().isEmpty()) {
                    next.put(ORIGINAL_ROUTING_KEY, first.routingKeys().get(0));
                }
            }
        }
        ATTEMPT_HEADERS.forEach(next::remove);
        BROKER_HEADERS.forEach(next::remove);
        DEATH_HEADERS.forEach(next::remove);
        next.put(REPLAYS, replays() + 1);
        next.put(REPLAYED_AT, now.toString());
        next.remove(REPLAYED_BY);
        replayedBy.ifPresent(name -> next.put(REPLAYED_BY, truncate(name, MAX_HISTORY_LINE)));
        return next;
    }

    /**
     * Returns a copy of {@code properties} to republish with these headers: made persistent, and without the
     * publisher's {@code expiration}, which {@value #ORIGINAL_EXPIRATION} keeps instead. A message without a
     * message id gets a {@value #MESSAGE_ID} that stays with it from then on.
     */
    public static AMQP.BasicProperties republish(AMQP.BasicProperties properties, Map<String, Object> headers) {
        return outgoing(properties, new HashMap<>(headers)).properties();
    }

    /**
     * The same as {@link #republish}, for a message that may be sent more than once, each send stamped with its
     * publish sequence number: {@code headers} is taken over, not copied.
     */
    public static Outgoing outgoing(AMQP.BasicProperties properties, Map<String, Object> headers) {
        carry(properties, headers);
        return new Outgoing(properties, headers);
    }

    /** What a republish carries in headers for its properties: the publisher's expiration, and an identity. */
    private static void carry(AMQP.BasicProperties properties, Map<String, Object> headers) {
        if (properties.getExpiration() != null) {
            headers.put(ORIGINAL_EXPIRATION, properties.getExpiration());
        }
        if (properties.getMessageId() == null) {
            headers.putIfAbsent(MESSAGE_ID, Ids.next());
        }
    }

    /** A message's properties and headers as republished; the headers are written when the properties are built. */
    public static final class Outgoing {
        private final AMQP.BasicProperties original;
        private final Map<String, Object> headers;

        private Outgoing(AMQP.BasicProperties original, Map<String, Object> headers) {
            this.original = original;
            this.headers = headers;
        }

        /** The properties, headers included. */
        public AMQP.BasicProperties properties() {
            return build();
        }

        /**
         * Whether the headers fit in {@code maxBytes} as each send carries them, its publish id included: counted
         * exactly, which encodes every string, only where the bound that needs no encoding says they may not.
         */
        public synchronized boolean fits(int maxBytes) {
            return sizeBound(headers) + PUBLISH_ID_BYTES <= maxBytes || size(headers) + PUBLISH_ID_BYTES <= maxBytes;
        }

        /** The properties of one send, stamped with its publish sequence number on its channel. */
        public synchronized AMQP.BasicProperties stamped(long sequence) {
            headers.put(PUBLISH_ID, sequence);
            return build();
        }

        private AMQP.BasicProperties build() {
            return original.builder().headers(headers).deliveryMode(2).expiration(null).build();
        }
    }

    private static void putPark(Map<String, Object> headers, Decision.Park park, String at) {
        headers.put(PARK_REASON, park.reason().id());
        headers.put(PARK_DETAIL, truncate(park.detail(), MAX_MESSAGE_LENGTH));
        headers.put(PARKED_AT, at);
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
    private static int entryBound(String key, Object value) {
        return value == null ? 0 : entrySize(key, value, false);
    }

    private static int entrySize(String key, Object value, boolean exact) {
        return 1 + (exact ? key.getBytes(StandardCharsets.UTF_8).length : 3 * key.length()) + 1
                + valueSize(value, exact);
    }

    private static int valueSize(Object value, boolean exact) {
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
        if (value instanceof LongString text) {
            return 4 + (int) text.length();
        }
        if (value instanceof String text) {
            return 4 + (exact ? text.getBytes(StandardCharsets.UTF_8).length : 3 * text.length());
        }
        return 8;
    }

    private Optional<String> string(String name) {
        return text(headers.get(name));
    }

    private Optional<Instant> instant(String name) {
        return string(name).flatMap(text -> {
            try {
                return Optional.of(Instant.parse(text));
            } catch (DateTimeParseException notATime) {
                return Optional.empty();
            }
        });
    }

    private static Optional<String> text(Object value) {
        if (value instanceof String text) {
            return Optional.of(text);
        }
        if (value instanceof LongString text) {
            // Its toString() looks the charset up by name, every time.
            return Optional.of(new String(text.getBytes(), StandardCharsets.UTF_8));
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
