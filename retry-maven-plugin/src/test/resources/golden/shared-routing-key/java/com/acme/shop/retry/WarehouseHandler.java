package com.acme.shop.retry;

import io.github.retrytopology.runtime.consumer.DeliveryContext;
import io.github.retrytopology.runtime.consumer.Routes;
import javax.annotation.processing.Generated;

/**
 * Handles the messages of service <code>warehouse</code>, which consumes queue <code>warehouse</code>.
 *
 * <p>Up to 3 attempts, the retries waiting 1s and 5s; then the parking lot.
 *
 * <p>Implement one method per routing key, then consume with
 * {@code RetryingConsumer.builder(connection, WarehouseHandler.routes(handler)).start()}, or, with
 * retry-spring-boot-starter, make the implementation a bean. A method that returns acknowledges its message; one
 * that throws fails the attempt, and the retry policy decides what follows.
 *
 * <p>Generated from shared-routing-key.yml; do not edit.
 */
@Generated("io.github.retrytopology:retry-maven-plugin")
public interface WarehouseHandler {

    /**
     * Handles the messages routed with <code>order.placed</code>.
     */
    void orderPlaced(DeliveryContext context) throws Exception;

    /**
     * Routes the messages of this service to {@code handler}: each to the first of its routing keys, in the
     * order the spec lists them, that matches.
     */
    static Routes routes(WarehouseHandler handler) {
        Routes.Builder routes = Routes.builder(RetryTopology.WAREHOUSE);
        routes.on("order.placed", handler::orderPlaced);
        return routes.build();
    }
}
