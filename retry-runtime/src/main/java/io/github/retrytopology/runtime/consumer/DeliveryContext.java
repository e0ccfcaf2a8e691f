package io.github.retrytopology.runtime.consumer;

import static java.util.Objects.requireNonNull;

import com.rabbitmq.client.AMQP;
import io.github.retrytopology.model.Service;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One delivery as a handler sees it: the message, where it was first published, and which attempt this is.
 * A retried message arrives from its tier queue; the context still gives its original exchange and routing key.
 * Everything here was read when the message arrived and cannot be changed: the properties' headers are an
 * unmodifiable copy, so that nothing a handler does changes what happens to the message.
 */
public final class DeliveryContext {

    private final Service service;
    private final String exchange;
    private final String routingKey;
    private final String bindingKey;
    private final int attempt;
    /** Read from the headers when asked: parsing a time on every delivery cost more than the rest of its arrival. */
    private final Supplier<Optional<Instant>> firstFailure;
    private final AMQP.BasicProperties delivered;
    private final Map<String, Object> headers;
    private final byte[] body;
    private final String originalExpiration;
    private AMQP.BasicProperties properties;

    DeliveryContext(Service service, String exchange, String routingKey, String bindingKey, int attempt,
            Supplier<Optional<Instant>> firstFailure, AMQP.BasicProperties delivered, Map<String, Object> headers,
            String originalExpiration, byte[] body) {
        this.service = requireNonNull(service, "service");
        this.exchange = requireNonNull(exchange, "exchange");
        this.routingKey = requireNonNull(routingKey, "routingKey");
        this.bindingKey = bindingKey;
        this.attempt = attempt;
        this.firstFailure = requireNonNull(firstFailure, "firstFailure");
        this.delivered = requireNonNull(delivered, "delivered");
        this.headers = requireNonNull(headers, "headers");
        this.originalExpiration = originalExpiration;
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

    /**
     * The binding key, as the spec writes it, of the route whose handler takes the message; empty if none of the
     * service's routes takes its routing key (it is then parked).
     */
    public Optional<String> bindingKey() {
        return Optional.ofNullable(bindingKey);
    }

    /** Which attempt this delivery is, from 1. */
    public int attempt() {
        return attempt;
    }

    /** Whether a failure now parks the message rather than retrying it. */
    public boolean isLastAttempt() {
        return service.retryPolicy().isLastAttempt(attempt);
    }

    /** When the message failed for the first time; empty on its first attempt. */
    public Optional<Instant> firstFailure() {
        return firstFailure.get();
    }

    /** The publisher's message id, if it set one. */
    public Optional<String> messageId() {
        return Optional.ofNullable(delivered.getMessageId());
    }

    /**
     * The {@code expiration} its publisher gave the message, if any. A retry never carries it (it would make the
     * message leave its tier early, or expire out of the parking lot), so on later attempts it comes from the
     * {@code retry-original-expiration} header; whether the message is still worth handling is the handler's
     * call.
     */
    public Optional<String> originalExpiration() {
        return Optional.ofNullable(originalExpiration);
    }

    /**
     * The message's properties, with an unmodifiable copy of its headers as they arrived, text as {@code String}s
     * (the Java client's {@code LongString}s turned into them, or into bytes where they are not UTF-8).
     */
    public synchronized AMQP.BasicProperties properties() {
        if (properties == null) {
            properties = delivered.builder().headers(headers).build();
        }
        return properties;
    }

    /** The raw body; a copy, so that a handler cannot change what a retry republishes. */
    public byte[] body() {
        return body.clone();
    }

    /** The body's length in bytes. */
    public int bodySize() {
        return body.length;
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
