package com.acme.notify;

import io.github.retrytopology.runtime.consumer.DeliveryContext;
import io.github.retrytopology.runtime.consumer.Routes;
import javax.annotation.processing.Generated;

/**
 * Handles the messages of service <code>email</code>, which consumes queue <code>email</code>.
 *
 * <p>Up to 6 attempts, the broker holding each retry back 1s × the retry's number, up to 3s; then the parking lot.
 *
 * <p>Implement one method per routing key, then consume with
 * {@code RetryingConsumer.builder(connection, EmailHandler.routes(handler)).start()}, or, with
 * retry-spring-boot-starter, make the implementation a bean. A method that returns acknowledges its message; one
 * that throws fails the attempt, and the retry policy decides what follows.
 *
 * <p>Generated from broker-delay.yml; do not edit.
 */
@Generated("io.github.retrytopology:retry-maven-plugin")
public interface EmailHandler {

    /**
     * Handles the messages routed with <code>order.created</code>.
     */
    void orderCreated(DeliveryContext context) throws Exception;

    /**
     * Routes the messages of this service to {@code handler}: each to the first of its routing keys, in the
     * order the spec lists them, that matches.
     */
    static Routes routes(EmailHandler handler) {
        Routes.Builder routes = Routes.builder(RetryTopology.EMAIL);
        routes.on("order.created", handler::orderCreated);
        return routes.build();
    }
}
