package io.github.retrytopology.model;

/** Where the TTL, dead-letter and delivery-limit settings of the queues are kept. */
public enum QueueSettings {
    /**
     * In one policy per queue, matched by exact name: the default. Re-importing the definitions overwrites
     * policies, so a changed delay reaches the broker without deleting a queue.
     */
    POLICIES("policies"),
    /**
     * In each queue's arguments. Arguments are fixed when the queue is created: RabbitMQ never updates them on
     * re-import, so a changed delay needs the queue deleted and declared again.
     */
    ARGUMENTS("arguments");

    private final String id;

    QueueSettings(String id) {
        this.id = id;
    }

    /** Returns the value the spec uses, such as {@code policies}. */
    public String id() {
        return id;
    }
}
