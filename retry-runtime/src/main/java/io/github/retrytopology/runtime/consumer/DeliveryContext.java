package io.github.retrytopology.runtime.consumer;

import static java.util.Objects.requireNonNull;

import com.rabbitmq.client.AMQP;
import io.github.retrytopology.model.Service;
import java.time.Instant;
import java.util.Optional;

/**
 * One delivery as a handler sees it: the message, where it was first published, and which attempt this is.
 * A retried message arrives from its tier queue; the context still gives its original exchange and routing key.
 */
public final class DeliveryContext {

    private final Service service;
    private final String exchange;
    private final String routingKey;
    private final int attempt;
    private final Instant firstFailure;
    private final AMQP.BasicProperties properties;
    private final byte[] body;

    DeliveryContext(Service service, String exchange, String routingKey, int attempt, Instant firstFailure,
            AMQP.BasicProperties properties, byte[] body) {
        this.service = requireNonNull(service, "service");
        this.exchange = requireNonNull(exchange, "exchange");
        this.routingKey = requireNonNull(routingKey, "routingKey");
        this.attempt = attempt;
        this.firstFailure = firstFailure;
        this.properties = requireNonNull(properties, "properties");
        this.body = requireNonNull(body, "body");
    }

    /** The service whose queue this delivery came from. */
    public Service service() {
        return service;
    }

    /** The exchange the message was first published to. */
    public String exchange() {
        return exchange;
    }

    /** The routing key the message was first published with. */
    public String routingKey() {
        return routingKey;
    }

    /** Which attempt this delivery is, from 1. */
    public int attempt() {
        return attempt;
    }

    /** Whether a failure now parks the message rather than retrying it. */
    public boolean isLastAttempt() {
        return attempt >= service.retryPolicy().maxAttempts();
    }

    /** When the message failed for the first time; empty on its first attempt. */
    public Optional<Instant> firstFailure() {
        return Optional.ofNullable(firstFailure);
    }

    /** The publisher's message id, if it set one. */
    public Optional<String> messageId() {
        return Optional.ofNullable(properties.getMessageId());
    }

    /** The message's properties, headers included. */
    public AMQP.BasicProperties properties() {
        return properties;
    }

    /** The raw body; a copy, so that a handler cannot change what a retry republishes. */
    public byte[] body() {
        return body.clone();
    }

    byte[] rawBody() {
        return body;
    }

    @Override
    public String toString() {
        return "delivery of " + routingKey + " to " + service.name() + ", attempt " + attempt
                + messageId().map(id -> ", message id " + id).orElse("");
    }
}
