package io.github.retrytopology.model.headers;

import java.util.Arrays;
import java.util.Optional;

/** Why the broker dead-lettered a message, as {@link DeathField#REASON} says it. */
public enum DeathReason {
    /** A consumer rejected it without requeueing it. */
    REJECTED("rejected"),
    /** Its time to live passed, its own or its queue's. */
    EXPIRED("expired"),
    /** Its queue was over its length limit. */
    MAXLEN("maxlen"),
    /** More deliveries than its quorum queue's delivery limit ended without an answer. */
    DELIVERY_LIMIT("delivery_limit");

    private final String id;

    DeathReason(String id) {
        this.id = id;
    }

    /** The reason as the broker writes it. */
    public String id() {
        return id;
    }

    /** The reason the broker wrote, or empty for one this project does not know. */
    public static Optional<DeathReason> fromId(String id) {
        return Arrays.stream(values()).filter(reason -> reason.id.equals(id)).findFirst();
    }
}
