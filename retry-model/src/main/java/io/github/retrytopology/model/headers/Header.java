package io.github.retrytopology.model.headers;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A header of a message, by its name and the class of its value: the headers this project writes on a message that
 * fails, is parked or is replayed, and the broker's that it reads. Every header name the runtime and the operations
 * write or read is a constant here, the one place they are spelt.
 *
 * <p>Attempts are counted in {@link #ATTEMPTS}, never from {@link #X_DEATH}: RabbitMQ 3.13.0 to 3.13.2 stopped
 * counting republished messages there, and RabbitMQ 4 never reads an {@code x-death} that a client publishes. Every
 * value this project writes is a string, a number or a list of strings, readable in the management UI; times are
 * ISO-8601 instants.
 *
 * @param name the header's name in a message's header table
 * @param type the class of its value as written; a string may arrive as UTF-8 bytes (a protocol's adapter turns its
 *     client's own string type, such as the AMQP 0.9.1 client's {@code LongString}, into a {@code String})
 * @param <T> the type of its value
 */
public record Header<T>(String name, Class<T> type) {

    /** How many deliveries of the message have failed so far; the next delivery is attempt this plus one. */
    public static final Header<Number> ATTEMPTS = number("retry-attempts");
    /**
     * When the message failed for the first time; absent where that is not known: a message whose earlier attempts
     * the broker delayed (they left no header) has only {@link #LAST_FAILURE}.
     */
    public static final Header<String> FIRST_FAILURE = text("retry-first-failure");
    /** When the message failed for the last time; from its second failure on. */
    public static final Header<String> LAST_FAILURE = text("retry-last-failure");
    /** The exchange the message was first published to. */
    public static final Header<String> ORIGINAL_EXCHANGE = text("retry-original-exchange");
    /** The routing key the message was first published with, by which its handler is chosen. */
    public static final Header<String> ORIGINAL_ROUTING_KEY = text("retry-original-routing-key");
    /** The class of the last failure. */
    public static final Header<String> EXCEPTION = text("retry-exception");
    /** The message of the last failure, bounded. */
    public static final Header<String> EXCEPTION_MESSAGE = text("retry-exception-message");
    /** One line per failure before the last, oldest first: the last failure is in the other headers. */
    public static final Header<List<?>> FAILURES = list("retry-failures");
    /** Why the message was parked: the id of a {@code ParkReason}. */
    public static final Header<String> PARK_REASON = text("retry-park-reason");
    /** Why the message was parked, in a sentence. */
    public static final Header<String> PARK_DETAIL = text("retry-park-detail");
    /** When the message was parked. */
    public static final Header<String> PARKED_AT = text("retry-parked-at");
    /** How many times the message was replayed from the parking lot. */
    public static final Header<Number> REPLAYS = number("retry-replays");
    /**
     * The queue of the retry topology a team ran before adopting this one, from which a migration moved the message
     * through the default exchange, carrying its attempts over into these headers: they count on such a message as
     * on one a replay sent.
     */
    public static final Header<String> ADOPTED_FROM = text("retry-adopted-from");
    /** Who replayed the message from the parking lot last, as the replay named them. */
    public static final Header<String> REPLAYED_BY = text("retry-replayed-by");
    /** When the message was replayed from the parking lot last. */
    public static final Header<String> REPLAYED_AT = text("retry-replayed-at");
    /**
     * The publish sequence number of the send that carried the message, on its channel: a message the broker
     * returns is matched to its send by it.
     */
    public static final Header<Number> PUBLISH_ID = number("retry-publish-id");
    /**
     * The publisher's {@code expiration}, which a republished message no longer carries: a message must not
     * expire out of the parking lot, nor leave a tier before the tier's delay.
     */
    public static final Header<String> ORIGINAL_EXPIRATION = text("retry-original-expiration");
    /**
     * Who the message is across its retries when its publisher set no {@code message-id}: given at its first
     * failure and kept. Two parked copies with the same identity and attempt are twins of one message.
     */
    public static final Header<String> MESSAGE_ID = text("retry-message-id");
    /**
     * The publisher's headers that a message parked because it could not be republished whole no longer carries,
     * each as its name and size: they left no room in a frame for the park's.
     */
    public static final Header<List<?>> DROPPED_HEADERS = list("retry-dropped-headers");

    /**
     * Where a message's own expiration waits while {@code apply --migrate} holds the message in a temporary queue,
     * which has no dead-letter target; taken off when the message goes back. Not one of {@link #OURS}: the runtime
     * never meets it.
     */
    public static final Header<String> MIGRATION_EXPIRATION = text("retry-migration-expiration");

    /** The broker's dead-letter history, most recent first: a list of tables keyed by {@link DeathField}. */
    public static final Header<List<?>> X_DEATH = list("x-death");
    /** Where the broker dead-lettered the message first: the exchange. */
    public static final Header<String> X_FIRST_DEATH_EXCHANGE = text("x-first-death-exchange");
    /** Where the broker dead-lettered the message first: the queue. */
    public static final Header<String> X_FIRST_DEATH_QUEUE = text("x-first-death-queue");
    /** Why the broker dead-lettered the message first: a {@link DeathReason}. */
    public static final Header<String> X_FIRST_DEATH_REASON = text("x-first-death-reason");
    /** Where the broker dead-lettered the message last: the exchange. */
    public static final Header<String> X_LAST_DEATH_EXCHANGE = text("x-last-death-exchange");
    /** Where the broker dead-lettered the message last: the queue. */
    public static final Header<String> X_LAST_DEATH_QUEUE = text("x-last-death-queue");
    /** Why the broker dead-lettered the message last: a {@link DeathReason}. */
    public static final Header<String> X_LAST_DEATH_REASON = text("x-last-death-reason");
    /** The broker's count of deliveries of a quorum queue message that ended without an answer. */
    public static final Header<Number> X_DELIVERY_COUNT = number("x-delivery-count");
    /** The broker's count of every earlier delivery of a quorum queue message, RabbitMQ 4.3 and later. */
    public static final Header<Number> X_ACQUIRED_COUNT = number("x-acquired-count");

    /** Every header this project writes. */
    public static final List<Header<?>> OURS = List.of(ATTEMPTS, FIRST_FAILURE, LAST_FAILURE, ORIGINAL_EXCHANGE,
            ORIGINAL_ROUTING_KEY, EXCEPTION, EXCEPTION_MESSAGE, FAILURES, PARK_REASON, PARK_DETAIL, PARKED_AT, REPLAYS,
            ADOPTED_FROM, REPLAYED_BY, REPLAYED_AT, PUBLISH_ID, ORIGINAL_EXPIRATION, MESSAGE_ID, DROPPED_HEADERS);
    /** The broker's dead-letter history: {@link #X_DEATH} and the first and last deaths beside it. */
    public static final List<Header<?>> DEATHS = List.of(X_DEATH, X_FIRST_DEATH_EXCHANGE, X_FIRST_DEATH_QUEUE,
            X_FIRST_DEATH_REASON, X_LAST_DEATH_EXCHANGE, X_LAST_DEATH_QUEUE, X_LAST_DEATH_REASON);
    /** The broker's counts of deliveries, which it sets on each delivery and a published message must not carry. */
    public static final List<Header<?>> COUNTS = List.of(X_DELIVERY_COUNT, X_ACQUIRED_COUNT);

    public Header {
        requireNonNull(name, "name");
        requireNonNull(type, "type");
    }

    private static Header<Number> number(String name) {
        return new Header<>(name, Number.class);
    }

    private static Header<String> text(String name) {
        return new Header<>(name, String.class);
    }

    @SuppressWarnings("unchecked") // List.class is the class of every List<?>
    private static Header<List<?>> list(String name) {
        return new Header<>(name, (Class<List<?>>) (Class<?>) List.class);
    }

    /** This header's value in a table, or empty if it is absent or not of its type. */
    public Optional<T> in(Map<String, ?> headers) {
        return Optional.ofNullable(headers.get(name)).filter(type::isInstance).map(type::cast);
    }

    /** Sets this header in a table. */
    public void put(Map<String, Object> headers, T value) {
        headers.put(name, requireNonNull(value, name));
    }

    @Override
    public String toString() {
        return name;
    }
}
