package com.acme.orders.retry;

import com.acme.orders.OrderEvent;
import io.github.retrytopology.runtime.consumer.DeliveryContext;
import io.github.retrytopology.runtime.consumer.Routes;
import javax.annotation.processing.Generated;

/**
 * Handles the messages of service <code>finance</code>, which consumes queue <code>finance</code>.
 *
 * <p>Up to 8 attempts, the retries waiting 10s, 1m40s, 1h, 2h and 10h, that last delay repeating; then the parking
 * lot. Parked at once: com.acme.orders.InvalidOrderException.
 *
 * <p>Implement one method per routing key, then consume with
 * {@code RetryingConsumer.builder(connection, FinanceHandler.routes(handler)).start()}, or, with
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
public interface FinanceHandler {

    /**
     * Handles the messages routed with <code>order.completed</code>, decoded into <code>com.acme.orders.OrderEvent</code>.
     */
    void orderCompleted(OrderEvent payload, DeliveryContext context) throws Exception;

    /**
     * Handles the messages routed with <code>order.refunded</code>.
     */
    void orderRefunded(DeliveryContext context) throws Exception;

    /**
     * Routes the messages of this service to {@code handler}: each to the first of its routing keys, in the
     * order the spec lists them, that matches.
     */
    static Routes routes(FinanceHandler handler) {
        Routes.Builder routes = Routes.builder(RetryTopology.FINANCE);
        routes.on("order.completed", OrderEvent.class, handler::orderCompleted);
        routes.on("order.refunded", handler::orderRefunded);
        return routes.build();
    }
}
