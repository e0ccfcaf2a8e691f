package com.acme.alerts;

import io.github.retrytopology.runtime.consumer.DeliveryContext;
import io.github.retrytopology.runtime.consumer.Routes;
import javax.annotation.processing.Generated;

/**
 * Handles the messages of service <code>push</code>, which consumes queue <code>push</code>.
 *
 * <p>Up to 8 attempts, consumed over AMQP 1.0, the broker holding each retry back until its delivery time: 1s, 2s,
 * 4s, 8s, 16s, 32s and 1m (after a crash, 1s × the retry's number, up to 1m); then the parking lot.
 *
 * <p>Implement one method per routing key, then consume it over AMQP 1.0, as its spec asks ({@code protocol:
 * amqp-1.0}), with {@code Amqp10RetryingConsumer.builder(connection, PushHandler.routes(handler)).start()} on
 * RabbitMQ's AMQP 1.0 client, or, with retry-spring-boot-starter, make the implementation a bean. A method that
 * returns acknowledges its message; one that throws fails the attempt, and the retry policy decides what
 * follows.
 *
 * <p>Generated from amqp10.yml; do not edit.
 */
@Generated("io.github.retrytopology:retry-maven-plugin")
public interface PushHandler {

    /**
     * Handles the messages routed with <code>alert.escalated</code>.
     */
    void alertEscalated(DeliveryContext context) throws Exception;

    /**
     * Routes the messages of this service to {@code handler}: each to the first of its routing keys, in the
     * order the spec lists them, that matches.
     */
    static Routes routes(PushHandler handler) {
        Routes.Builder routes = Routes.builder(RetryTopology.PUSH);
        routes.on("alert.escalated", handler::alertEscalated);
        return routes.build();
    }
}
