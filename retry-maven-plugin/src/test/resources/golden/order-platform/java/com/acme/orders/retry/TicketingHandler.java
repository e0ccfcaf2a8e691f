package com.acme.orders.retry;

import com.acme.orders.OrderEvent;
import io.github.retrytopology.runtime.consumer.DeliveryContext;
import io.github.retrytopology.runtime.consumer.Routes;
import javax.annotation.processing.Generated;

/**
 * Handles the messages of service <code>ticketing</code>, which consumes queue <code>ticketing</code>.
 *
 * <p>Up to 6 attempts, the retries waiting 10s, 1m40s, 1h, 2h and 10h; then the parking lot. Parked at once:
 * com.acme.orders.InvalidOrderException.
 *
 * <p>Implement one method per routing key, then consume with
 * {@code RetryingConsumer.builder(connection, TicketingHandler.routes(handler)).start()}, or, with
 * retry-spring-boot-starter, make the implementation a bean. A method that returns acknowledges its message; one
 * that throws fails the attempt, and the retry policy decides what follows.
 *
 * <p>A payload class may be generic: its method takes it raw, as the codec decodes it, so raw types are no warning
 * here.
 *
 * <p>Generated from order-platform.yml; do not edit.
 */
@Generated("io.github.retrytopology:retry-maven-plugin")
@SuppressWarnings("rawtypes")
public interface TicketingHandler {

    /**
     * Handles the messages routed with <code>order.*</code>, decoded into <code>com.acme.orders.OrderEvent</code>.
     */
    void orderEvent(OrderEvent payload, DeliveryContext context) throws Exception;

    /**
     * Routes the messages of this service to {@code handler}: each to the first of its routing keys, in the
     * order the spec lists them, that matches.
     */
    static Routes routes(TicketingHandler handler) {
        Routes.Builder routes = Routes.builder(RetryTopology.TICKETING);
        routes.on("order.*", OrderEvent.class, handler::orderEvent);
        return routes.build();
    }
}
