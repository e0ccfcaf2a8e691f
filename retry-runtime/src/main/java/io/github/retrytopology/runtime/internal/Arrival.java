package io.github.retrytopology.runtime.internal;

import static java.util.Objects.requireNonNull;

import org.jspecify.annotations.Nullable;

/**
 * How a delivery arrived, in no protocol's terms: what the headers of its retry or park keep of it
 * ({@link HeaderWriter}). A consumer on any protocol makes one from what its client delivers.
 *
 * @param exchange the exchange it was published to, as the broker says; empty for the default exchange
 * @param routingKey the routing key it was published with
 * @param expiration the publisher's per-message expiration, which a republish keeps in a header; null if none
 * @param messageId the publisher's message id; null if none, when a republish gets an identity of its own
 */
public record Arrival(String exchange, String routingKey, @Nullable String expiration, @Nullable String messageId) {

    public Arrival {
        requireNonNull(exchange, "exchange");
        requireNonNull(routingKey, "routingKey");
    }
}
