package io.github.retrytopology.model.topology;

/**
 * The values this project gives RabbitMQ's queue settings, and how a setting's name is spelt as a queue argument.
 * The settings themselves are {@link QueueSetting}'s constants: with this class, the one place the broker's words
 * for a queue are spelt, for the topology and for what compares a broker with it.
 */
public final class QueueArguments {

    /** What a queue argument starts with, before the name of the setting it stands for. */
    public static final String PREFIX = "x-";
    /** The argument that sets a queue's type, which no policy can: {@link QueueSetting#QUEUE_TYPE} as an argument. */
    public static final String QUEUE_TYPE = QueueSetting.QUEUE_TYPE.argument();
    /** The type of a stream, which this project never declares but may meet. */
    public static final String STREAM = "stream";
    /** The policy key of a quorum queue's dead-lettering guarantee: {@link QueueSetting#DEAD_LETTER_STRATEGY}'s. */
    public static final String DEAD_LETTER_STRATEGY = QueueSetting.DEAD_LETTER_STRATEGY.name();
    /** Dead-lettering that keeps a message until its target confirms it; quorum queues only. */
    public static final String AT_LEAST_ONCE = "at-least-once";
    /** Dead-lettering that drops a message its target refuses: RabbitMQ's default. */
    public static final String AT_MOST_ONCE = "at-most-once";
    /** A full queue refuses a publish rather than drop its oldest message: what at-least-once dead-lettering needs. */
    public static final String REJECT_PUBLISH = "reject-publish";
    /** Delay only failed deliveries: a reject with requeue, or a consumer that crashed while holding the message. */
    public static final String FAILED = "failed";

    private QueueArguments() {
    }

    /** The argument that sets what a policy key sets: {@code message-ttl} is {@code x-message-ttl}. */
    public static String argument(String policyKey) {
        return PREFIX + policyKey;
    }

    /** The policy key of an argument: {@code x-message-ttl} is {@code message-ttl}. */
    public static String policyKey(String argument) {
        if (!argument.startsWith(PREFIX)) {
            throw new IllegalArgumentException("'" + argument + "' is not a queue argument: they start with " + PREFIX);
        }
        return argument.substring(PREFIX.length());
    }
}
