package io.github.retrytopology.model;

/** The RabbitMQ queue type of a service's queues. */
public enum QueueType {
    /**
     * Replicated, and the default: they count deliveries, so a message that crashes its consumer again and
     * again ends in the parking lot, and they dead-letter at least once.
     */
    QUORUM("quorum"),
    /** A single replica, dead-lettering at most once, and no protection against a message that crashes its consumer. */
    CLASSIC("classic");

    private final String id;

    QueueType(String id) {
        this.id = id;
    }

    /** Returns the name RabbitMQ and the spec use, such as {@code quorum}. */
    public String id() {
        return id;
    }
}
