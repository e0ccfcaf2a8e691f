package io.github.retrytopology.model.topology;

import static java.util.Objects.requireNonNull;

/**
 * A binding of a queue to an exchange.
 *
 * @param exchange the source exchange
 * @param queue the destination queue
 * @param routingKey the binding key
 */
public record Binding(String exchange, String queue, String routingKey) {

    public Binding {
        requireNonNull(exchange, "exchange");
        requireNonNull(queue, "queue");
        requireNonNull(routingKey, "routingKey");
    }
}
