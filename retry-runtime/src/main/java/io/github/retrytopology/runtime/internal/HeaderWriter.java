package io.github.retrytopology.runtime.internal;

import io.github.retrytopology.model.decision.Decision;
import io.github.retrytopology.model.headers.Header;
import io.github.retrytopology.runtime.headers.RetryHeaders;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * How the headers of a message change on each failure, park and replay: the headers read on its delivery
 * ({@link RetryHeaders}), less what the broker owns, with this project's written over them, bounded to fit one frame.
 * In no protocol's terms: a consumer or a parking lot on any protocol writes its headers with these.
 */
public final class HeaderWriter {

    /** The longest failure line kept in the history, in characters. */
    static final int MAX_HISTORY_LINE = 300;

    /** Every header this project writes, by name. */
    private static final Set<String> OURS = Header.OURS.stream().map(Header::name)
            .collect(Collectors.toUnmodifiableSet());

    /** Headers that describe one failure and go when a message is replayed. */
    private static final List<Header<?>> ATTEMPT_HEADERS = List.of(Header.ATTEMPTS, Header.FIRST_FAILURE,
            Header.LAST_FAILURE, Header.EXCEPTION, Header.EXCEPTION_MESSAGE, Header.FAILURES, Header.PARK_REASON,
            Header.PARK_DETAIL, Header.PARKED_AT, Header.PUBLISH_ID);

    private HeaderWriter() {
    }

    /** The failure lines to keep on the next failure, oldest first: the last ones, leaving room for one more. */
    private static List<String> history(RetryHeaders read) {
        List<String> lines = read.failures();
        return new ArrayList<>(lines.subList(Math.max(0, lines.size() - (RetryHeaders.MAX_HISTORY - 1)), lines.size()));
    }

    /**
     * Returns the headers of a message to republish after its attempt {@code attempt} failed with
     * {@code failure}: the original headers, less what the broker owns, with the attempt counted and the
     * failure recorded; parked, if the decision parks it. They fit in {@code maxBytes} as they are sent: with
     * what {@link #carry} adds, the publisher's expiration and an identity, and the publish id of
     * each send.
     *
     * @param arrival how the failed delivery arrived: its exchange and routing key on a first failure, and the
     *     expiration and message id the republish carries
     * @param maxBytes the most bytes the headers may take, to fit the connection's frame size
     */
    public static Map<String, Object> afterFailure(RetryHeaders read, Arrival arrival, int attempt, Throwable failure,
            Decision decision, Instant now, int maxBytes) {
        Map<String, Object> headers = trusted(read);
        Map<String, Object> next = new HashMap<>(headers.size() * 2 + 16);
        next.putAll(headers);
        Header.COUNTS.forEach(header -> next.remove(header.name()));
        String at = Timestamps.format(now);
        String exception = failure.getClass().getName();
        String message = truncate(failure.getMessage() == null ? "" : failure.getMessage(),
                RetryHeaders.MAX_MESSAGE_LENGTH);
        Header.ATTEMPTS.put(next, attempt);
        // Where the broker delayed the earlier attempts, they left nothing on the message: this failure is then the
        // last, and when the first was is not known.
        boolean first = attempt == 1 && !next.containsKey(Header.FIRST_FAILURE.name());
        if (first) {
            next.remove(Header.LAST_FAILURE.name());
        }
        Header<String> time = first ? Header.FIRST_FAILURE : Header.LAST_FAILURE;
        time.put(next, at);
        next.putIfAbsent(Header.ORIGINAL_EXCHANGE.name(), arrival.exchange());
        next.putIfAbsent(Header.ORIGINAL_ROUTING_KEY.name(), arrival.routingKey());
        Header.EXCEPTION.put(next, exception);
        Header.EXCEPTION_MESSAGE.put(next, message);
        carry(arrival.expiration(), arrival.messageId(), next);
        // A bound of the size, counted as the headers are made rather than over the table: what the message carried,
        // and on top of it everything this may have added or replaced, and will add to each send.
        int bound = HeaderSize.sizeBound(headers) + HeaderSize.entryBound(Header.ATTEMPTS, attempt)
                + HeaderSize.entryBound(time, at)
                + HeaderSize.entryBound(Header.ORIGINAL_EXCHANGE, arrival.exchange())
                + HeaderSize.entryBound(Header.ORIGINAL_ROUTING_KEY, arrival.routingKey())
                + HeaderSize.entryBound(Header.EXCEPTION, exception)
                + HeaderSize.entryBound(Header.EXCEPTION_MESSAGE, message)
                + HeaderSize.entryBound(Header.ORIGINAL_EXPIRATION, next.get(Header.ORIGINAL_EXPIRATION.name()))
                + HeaderSize.entryBound(Header.MESSAGE_ID, next.get(Header.MESSAGE_ID.name()))
                + HeaderSize.PUBLISH_ID_BYTES;
        if (decision instanceof Decision.Park park) {
            putPark(next, park, at);
            bound += HeaderSize.entryBound(Header.PARK_REASON, next.get(Header.PARK_REASON.name()))
                    + HeaderSize.entryBound(Header.PARK_DETAIL, next.get(Header.PARK_DETAIL.name()))
                    + HeaderSize.entryBound(Header.PARKED_AT, at);
        }
        // The failure before this one, if any, joins the history; this one is described by the other headers.
        List<String> kept = history(read);
        if (kept.isEmpty()) {
            next.remove(Header.FAILURES.name());
        } else {
            Header.FAILURES.put(next, Collections.unmodifiableList(kept));
            bound += HeaderSize.entryBound(Header.FAILURES, kept);
        }
        if (bound <= maxBytes) {
            return next;
        }
        // Drop the oldest lines, then the exception message, until the headers fit in a frame.
        int room = maxBytes - HeaderSize.PUBLISH_ID_BYTES;
        while (HeaderSize.size(next) > room && !kept.isEmpty()) {
            kept = new ArrayList<>(kept.subList(1, kept.size()));
            Header.FAILURES.put(next, Collections.unmodifiableList(kept));
        }
        if (HeaderSize.size(next) > room) {
            Header.EXCEPTION_MESSAGE.put(next, "");
        }
        return next;
    }

    /**
     * Returns the headers of a message parked without a failure to record, such as one no handler takes: the
     * original headers with the park reason.
     */
    public static Map<String, Object> parked(RetryHeaders read, Arrival arrival, Decision.Park park, Instant now) {
        Map<String, Object> next = new HashMap<>(trusted(read));
        Header.COUNTS.forEach(header -> next.remove(header.name()));
        next.putIfAbsent(Header.ORIGINAL_EXCHANGE.name(), arrival.exchange());
        next.putIfAbsent(Header.ORIGINAL_ROUTING_KEY.name(), arrival.routingKey());
        putPark(next, park, Timestamps.format(now));
        return next;
    }

    /**
     * Returns the headers of a message parked because no republish of it fits the connection's frame: its
     * publisher's headers, the largest dropped first until the park's fit in {@code maxBytes} as sent, and named in
     * {@link Header#DROPPED_HEADERS}. The body and the other properties are kept whole.
     */
    public static Map<String, Object> parkedWithoutRoom(RetryHeaders read, Arrival arrival, Decision.Park park,
            Instant now, int maxBytes) {
        Map<String, Object> next = parked(read, arrival, park, now);
        carry(arrival.expiration(), arrival.messageId(), next);
        List<String> dropped = new ArrayList<>();
        int room = maxBytes - HeaderSize.PUBLISH_ID_BYTES;
        while (HeaderSize.size(next) + HeaderSize.valueSize(dropped, true) + 2 + Header.DROPPED_HEADERS.name().length()
                > room) {
            Map.Entry<String, Object> largest = null;
            int largestSize = 0;
            for (Map.Entry<String, Object> entry : next.entrySet()) {
                int entrySize = HeaderSize.entrySize(entry.getKey(), entry.getValue(), true);
                if (!isOurs(entry.getKey()) && entrySize > largestSize) {
                    largest = entry;
                    largestSize = entrySize;
                }
            }
            if (largest == null) {
                next.remove(Header.FAILURES.name());
                Header.EXCEPTION_MESSAGE.put(next, "");
                break;
            }
            dropped.add(truncate(largest.getKey(), MAX_HISTORY_LINE) + " (" + largestSize
                    + " bytes)");
            next.remove(largest.getKey());
        }
        if (!dropped.isEmpty()) {
            Header.DROPPED_HEADERS.put(next, Collections.unmodifiableList(dropped));
        }
        return next;
    }

    /**
     * Returns the headers of a parked message replayed to its service: the attempt count and every failure
     * header reset, the broker's dead-letter history dropped, the original exchange and routing key kept (taken
     * from {@code x-death} for a message the broker parked itself), and the replay counted, with its time and
     * who replayed it (else no one, and an older replay's name goes).
     */
    public static Map<String, Object> forReplay(RetryHeaders read, Instant now, Optional<String> replayedBy) {
        Map<String, Object> next = new HashMap<>(trusted(read));
        if (!next.containsKey(Header.ORIGINAL_ROUTING_KEY.name())) {
            List<RetryHeaders.Death> deaths = read.deaths();
            if (!deaths.isEmpty()) {
                RetryHeaders.Death first = deaths.get(deaths.size() - 1);
                Header.ORIGINAL_EXCHANGE.put(next, first.exchange());
                if (!first.routingKeys().isEmpty()) {
                    Header.ORIGINAL_ROUTING_KEY.put(next, first.routingKeys().get(0));
                }
            }
        }
        ATTEMPT_HEADERS.forEach(header -> next.remove(header.name()));
        Header.COUNTS.forEach(header -> next.remove(header.name()));
        Header.DEATHS.forEach(header -> next.remove(header.name()));
        Header.REPLAYS.put(next, read.replays() + 1);
        Header.REPLAYED_AT.put(next, now.toString());
        next.remove(Header.REPLAYED_BY.name());
        replayedBy.ifPresent(name -> Header.REPLAYED_BY.put(next,
                truncate(name, MAX_HISTORY_LINE)));
        return next;
    }

    /** What a republish carries in headers for its properties: the publisher's expiration, and an identity. */
    public static void carry(@Nullable String expiration, @Nullable String messageId, Map<String, Object> headers) {
        if (expiration != null) {
            Header.ORIGINAL_EXPIRATION.put(headers, expiration);
        }
        if (messageId == null) {
            headers.putIfAbsent(Header.MESSAGE_ID.name(), Ids.next());
        }
    }

    private static void putPark(Map<String, Object> headers, Decision.Park park, String at) {
        Header.PARK_REASON.put(headers, park.reason().id());
        Header.PARK_DETAIL.put(headers, truncate(park.detail(), RetryHeaders.MAX_MESSAGE_LENGTH));
        Header.PARKED_AT.put(headers, at);
    }

    /**
     * The headers of a delivery as trusted: those it arrived with, less stale copies of this project's on a message
     * that came from anywhere but the service's own retries, replays and migrations.
     */
    private static Map<String, Object> trusted(RetryHeaders read) {
        Map<String, Object> delivered = read.delivered();
        if (read.provenance() != RetryHeaders.Provenance.PUBLISHED
                || delivered.keySet().stream().noneMatch(OURS::contains)) {
            return delivered;
        }
        Map<String, Object> fresh = new HashMap<>(delivered);
        fresh.keySet().removeAll(OURS);
        return fresh;
    }

    /** Whether this project writes a header of this name. */
    private static boolean isOurs(String name) {
        return OURS.contains(name);
    }

    /**
     * Whether headers fit in {@code maxBytes} as each send carries them, its publish id included: counted exactly,
     * which encodes every string, only where the bound that needs no encoding says they may not.
     */
    public static boolean fits(Map<String, Object> headers, int maxBytes) {
        return HeaderSize.sizeBound(headers) + HeaderSize.PUBLISH_ID_BYTES <= maxBytes
                || HeaderSize.size(headers) + HeaderSize.PUBLISH_ID_BYTES <= maxBytes;
    }

    static String truncate(String text, int length) {
        return text.length() <= length ? text : text.substring(0, length - 1) + "…";
    }
}
