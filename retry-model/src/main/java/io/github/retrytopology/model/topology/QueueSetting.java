package io.github.retrytopology.model.topology;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A setting of a queue that RabbitMQ reads both from a policy's definition and from the queue's arguments, under
 * two spellings of one name: {@code message-ttl} in a policy is {@code x-message-ttl} among the arguments. One type
 * for both, because they are one setting: where a queue has both, the argument wins. The queue's type is the one
 * setting no policy can make, and has only its argument.
 *
 * <p>Every setting this project writes, reads or compares is a constant here: the one place RabbitMQ's names for
 * them are spelt. {@link QueueArguments} holds the values this project gives them.
 *
 * @param name its name in a policy's definition, such as {@code message-ttl}; an argument puts {@code x-} before it
 * @param type the class of its value as this project writes it, and as a definition read from JSON holds it
 * @param byPolicy whether a policy can set it
 * @param <T> the type of its value
 */
public record QueueSetting<T>(String name, Class<T> type, boolean byPolicy) {

    /** How long a message stays in the queue, in milliseconds, before it expires. */
    public static final QueueSetting<Number> MESSAGE_TTL = number("message-ttl");
    /** How long the queue lives unused, in milliseconds, before the broker deletes it. */
    public static final QueueSetting<Number> EXPIRES = number("expires");
    /** The most messages the queue holds. */
    public static final QueueSetting<Number> MAX_LENGTH = number("max-length");
    /** The most bytes of message bodies the queue holds. */
    public static final QueueSetting<Number> MAX_LENGTH_BYTES = number("max-length-bytes");
    /** What a full queue does with one more message; see {@link QueueArguments#REJECT_PUBLISH}. */
    public static final QueueSetting<String> OVERFLOW = text("overflow");
    /** The exchange a message goes to when it dies here: expired, refused, or over a limit. */
    public static final QueueSetting<String> DEAD_LETTER_EXCHANGE = text("dead-letter-exchange");
    /** The routing key a dead message is published with, instead of its own. */
    public static final QueueSetting<String> DEAD_LETTER_ROUTING_KEY = text("dead-letter-routing-key");
    /** A quorum queue's dead-lettering guarantee; see {@link QueueArguments#AT_LEAST_ONCE}. */
    public static final QueueSetting<String> DEAD_LETTER_STRATEGY = text("dead-letter-strategy");
    /** How many deliveries of a quorum queue's message may end without an answer before it dies. */
    public static final QueueSetting<Number> DELIVERY_LIMIT = number("delivery-limit");
    /**
     * Which returns of a quorum queue's messages the broker delays (RabbitMQ 4.3, as a policy key from 4.3.1); see
     * {@link QueueArguments#FAILED}.
     */
    public static final QueueSetting<String> DELAYED_RETRY_TYPE = text("delayed-retry-type");
    /** The delayed retry's first delay, in milliseconds, also the step each later one adds. */
    public static final QueueSetting<Number> DELAYED_RETRY_MIN = number("delayed-retry-min");
    /** The delayed retry's longest delay, in milliseconds. */
    public static final QueueSetting<Number> DELAYED_RETRY_MAX = number("delayed-retry-max");
    /** The queue's type: {@code classic}, {@code quorum} or {@code stream}; an argument only. */
    public static final QueueSetting<String> QUEUE_TYPE = new QueueSetting<>("queue-type", String.class, false);

    /** The settings that decide what happens to a message in the queue: its TTL, dead-lettering and limits. */
    public static final List<QueueSetting<?>> MESSAGE_FATE = List.of(MESSAGE_TTL, EXPIRES, MAX_LENGTH,
            MAX_LENGTH_BYTES, DELIVERY_LIMIT, OVERFLOW, DEAD_LETTER_EXCHANGE, DEAD_LETTER_ROUTING_KEY,
            DEAD_LETTER_STRATEGY);

    /** Every setting here, in the order they are declared. */
    public static final List<QueueSetting<?>> ALL = List.of(MESSAGE_TTL, EXPIRES, MAX_LENGTH, MAX_LENGTH_BYTES,
            OVERFLOW, DEAD_LETTER_EXCHANGE, DEAD_LETTER_ROUTING_KEY, DEAD_LETTER_STRATEGY, DELIVERY_LIMIT,
            DELAYED_RETRY_TYPE, DELAYED_RETRY_MIN, DELAYED_RETRY_MAX, QUEUE_TYPE);

    public QueueSetting {
        requireNonNull(name, "name");
        requireNonNull(type, "type");
        if (name.startsWith(QueueArguments.PREFIX)) {
            throw new IllegalArgumentException("'" + name + "' is spelt as an argument; a setting is named by "
                    + "its name in a policy, without " + QueueArguments.PREFIX);
        }
    }

    private static QueueSetting<Number> number(String name) {
        return new QueueSetting<>(name, Number.class, true);
    }

    private static QueueSetting<String> text(String name) {
        return new QueueSetting<>(name, String.class, true);
    }

    /** The name among a queue's arguments: {@code x-message-ttl}. */
    public String argument() {
        return QueueArguments.PREFIX + name;
    }

    /** This setting's value in a policy's definition, or empty if it is absent or not of its type. */
    public Optional<T> in(Map<String, ?> definition) {
        return Optional.ofNullable(definition.get(name)).filter(type::isInstance).map(type::cast);
    }

    /** This setting's value among a queue's arguments, or empty if it is absent or not of its type. */
    public Optional<T> inArguments(Map<String, ?> arguments) {
        return Optional.ofNullable(arguments.get(argument())).filter(type::isInstance).map(type::cast);
    }

    /** Sets this setting in a policy's definition. */
    public void put(Map<String, Object> definition, T value) {
        definition.put(name, requireNonNull(value, name));
    }

    /** Whether a policy's definition or a queue's arguments name this setting, by either spelling. */
    public boolean named(String key) {
        return key.equals(name) || key.equals(argument());
    }

    @Override
    public String toString() {
        return name;
    }
}
