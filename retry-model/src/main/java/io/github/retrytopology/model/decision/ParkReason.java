package io.github.retrytopology.model.decision;

/** Why a message went to the parking lot instead of being retried. */
public enum ParkReason {
    /** The failure, one of its superclasses or one of its causes is listed in {@code nonRetryable}. */
    NON_RETRYABLE("non-retryable"),
    /** The message failed on its last allowed attempt. */
    ATTEMPTS_EXHAUSTED("attempts-exhausted"),
    /** The handler asked for the message to be parked. */
    REJECTED("rejected"),
    /** The body could not be decoded into the handler's payload type. */
    UNDECODABLE("undecodable"),
    /** No handler of the service matches the message's routing key. */
    NO_HANDLER("no-handler"),
    /**
     * The broker dead-lettered the message from the service's queue after more deliveries than its delivery limit
     * ended without an answer (consumers that crashed or lost their connection while they held it).
     */
    DELIVERY_LIMIT("delivery-limit"),
    /** The broker dead-lettered the message from the service's queue because its own expiration passed there. */
    EXPIRED("expired"),
    /**
     * The consumer could not republish the message at all (its publisher's headers leave no room in a frame for
     * the failure's), and had the broker dead-letter it, as it arrived, from the service's queue.
     */
    UNPUBLISHABLE("unpublishable");

    private final String id;

    ParkReason(String id) {
        this.id = id;
    }

    /** Returns the stable identifier written into the parked message's headers. */
    public String id() {
        return id;
    }

    /** Returns the reason with this identifier. */
    public static ParkReason fromId(String id) {
        for (ParkReason reason : values()) {
            if (reason.id.equals(id)) {
                return reason;
            }
        }
        throw new IllegalArgumentException("no park reason '" + id + "'");
    }
}
