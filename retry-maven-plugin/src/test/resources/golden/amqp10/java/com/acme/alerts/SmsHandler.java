package com.acme.alerts;

import io.github.retrytopology.runtime.consumer.DeliveryContext;
import io.github.retrytopology.runtime.consumer.Routes;
import javax.annotation.processing.Generated;

/**
 * Handles the messages of service <code>sms</code>, which consumes queue <code>sms</code>.
 *
 * <p>Up to 3 attempts, the retries waiting 5s and 30s; then the parking lot.
 *
 * <p>Implement one method per routing key, then consume with
 * {@code RetryingConsumer.builder(connection, SmsHandler.routes(handler)).start()}, or, with
 * retry-spring-boot-starter, make the implementation a bean. A method that returns acknowledges its message; one
 * that throws fails the attempt, and the retry policy decides what follows.
 *
 * <p>Generated from amqp10.yml; do not edit.
 */
@Generated("io.github.retrytopology:retry-maven-plugin")
public interface SmsHandler {

    /**
     * Handles the messages routed with <code>alert.cleared</code>.
     */
    void alertCleared(DeliveryContext context) throws Exception;

    /**
     * Routes the messages of this service to {@code handler}: each to the first of its routing keys, in the
     * order the spec lists them, that matches.
     */
    static Routes routes(SmsHandler handler) {
        Routes.Builder routes = Routes.builder(RetryTopology.SMS);
        routes.on("alert.cleared", handler::alertCleared);
        return routes.build();
    }
}
