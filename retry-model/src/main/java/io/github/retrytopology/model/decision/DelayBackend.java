package io.github.retrytopology.model.decision;

/** What holds a message between a failed attempt and its retry. */
public enum DelayBackend {
    /**
     * Wait queues, one per delay: the retry is republished to the tier's queue, whose TTL sends it back. Any
     * RabbitMQ from 3.10; attempts are counted in the message's own headers.
     */
    TIER_QUEUES("tier-queues"),
    /**
     * The service's own quorum queue, which holds a rejected message back before delivering it again (RabbitMQ's
     * delayed retry, 4.3.1 and later): no republish, no wait queue, no dead-lettering. The broker counts the
     * attempts, in {@code x-delivery-count}, and its delay grows linearly: see {@link BrokerDelay}. Over AMQP 1.0
     * ({@link io.github.retrytopology.model.Protocol#AMQP_1_0}) it holds each retry until the time its consumer
     * gives it instead, so any delays go.
     */
    BROKER("broker");

    private final String id;

    DelayBackend(String id) {
        this.id = id;
    }

    /** Returns the value the spec uses, such as {@code tier-queues}. */
    public String id() {
        return id;
    }

    /**
     * The attempt a delivery is, counted from 1.
     *
     * @param recordedFailures the failed attempts the message's own headers record: every one on tier queues; on
     *     the broker, those of a message that was retried through tier queues before its service moved
     * @param brokerCount the failed deliveries the broker counted, {@code x-delivery-count}: on the broker, each
     *     retry and each consumer that crashed or lost its connection while holding the message
     */
    public int attempt(int recordedFailures, int brokerCount) {
        long failures = (long) Math.max(recordedFailures, 0) + (this == BROKER ? Math.max(brokerCount, 0) : 0);
        // Saturates: a count at the largest int is the last attempt, not a negative one.
        return (int) Math.min(failures + 1, Integer.MAX_VALUE);
    }
}
