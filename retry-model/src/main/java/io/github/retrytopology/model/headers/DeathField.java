package io.github.retrytopology.model.headers;

import static java.util.Objects.requireNonNull;

import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A field of one entry of the broker's {@link Header#X_DEATH}: where and why it dead-lettered the message, and how
 * many times.
 *
 * @param name the field's name in the entry's table
 * @param type the class of its value
 * @param <T> the type of its value
 */
public record DeathField<T>(String name, Class<T> type) {

    /** The queue the message died in. */
    public static final DeathField<String> QUEUE = new DeathField<>("queue", String.class);
    /** Why it died there: a {@link DeathReason}. */
    public static final DeathField<String> REASON = new DeathField<>("reason", String.class);
    /** How many times it died there for that reason. */
    public static final DeathField<Number> COUNT = new DeathField<>("count", Number.class);
    /** The exchange it had been published to. */
    public static final DeathField<String> EXCHANGE = new DeathField<>("exchange", String.class);
    /** The routing keys it had been published with. */
    public static final DeathField<List<?>> ROUTING_KEYS = routingKeys();
    /** When it died there last: a timestamp. */
    public static final DeathField<Date> TIME = new DeathField<>("time", Date.class);
    /** Its own expiration, which the broker takes off when it dead-letters it. */
    public static final DeathField<String> ORIGINAL_EXPIRATION = new DeathField<>("original-expiration", String.class);

    public DeathField {
        requireNonNull(name, "name");
        requireNonNull(type, "type");
    }

    @SuppressWarnings("unchecked") // List.class is the class of every List<?>
    private static DeathField<List<?>> routingKeys() {
        return new DeathField<>("routing-keys", (Class<List<?>>) (Class<?>) List.class);
    }

    /** This field's value in an entry, or empty if it is absent or not of its type. */
    public Optional<T> in(Map<?, ?> entry) {
        return Optional.ofNullable(entry.get(name)).filter(type::isInstance).map(type::cast);
    }

    /** Sets this field in an entry. */
    public void put(Map<String, Object> entry, T value) {
        entry.put(name, requireNonNull(value, name));
    }

    @Override
    public String toString() {
        return name;
    }
}
