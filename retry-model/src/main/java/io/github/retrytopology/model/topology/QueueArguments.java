package io.github.retrytopology.model.topology;

/**
 * RabbitMQ's names for the settings of a queue, as queue arguments and as policy keys, and for the values this
 * project gives them: the one place they are spelt, for the topology and for what compares a broker with it.
 */
public final class QueueArguments {

    /** What a queue argument starts with, before the policy key it stands for. */
    public static final String PREFIX = "x-";
    /** The argument that sets a queue's type, which no policy can. */
    public static final String QUEUE_TYPE = "x-queue-type";
    /** The type of a stream, which this project never declares but may meet. */
    public static final String STREAM = "stream";
    /** The policy key of a quorum queue's dead-lettering guarantee. */
    public static final String DEAD_LETTER_STRATEGY = "dead-letter-strategy";
    /** Dead-lettering that keeps a message until its target confirms it; quorum queues only. */
    public static final String AT_LEAST_ONCE = "at-least-once";
    /** Dead-lettering that drops a message its target refuses: RabbitMQ's default. */
    public static final String AT_MOST_ONCE = "at-most-once";

    /** The policy key of a quorum queue's delayed retry (RabbitMQ 4.3.1 and later): which returns it delays. */
    public static final String DELAYED_RETRY_TYPE = "delayed-retry-type";
    /** Delay only failed deliveries: a reject with requeue, or a consumer that crashed while holding the message. */
    public static final String FAILED = "failed";
    /** The policy key of the delayed retry's first delay, in milliseconds, also the step each later one adds. */
    public static final String DELAYED_RETRY_MIN = "delayed-retry-min";
    /** The policy key of the delayed retry's longest delay, in milliseconds. */
    public static final String DELAYED_RETRY_MAX = "delayed-retry-max";

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
