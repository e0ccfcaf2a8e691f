package com.acme.ucenter.retry;

import io.github.retrytopology.runtime.consumer.DeliveryContext;
import io.github.retrytopology.runtime.consumer.Routes;
import javax.annotation.processing.Generated;

/**
 * Handles the messages of service <code>notifications</code>, which consumes queue <code>notifications</code>.
 *
 * <p>Up to 4 attempts, the retries waiting 30s and 5m, that last delay repeating; then the parking lot.
 *
 * <p>Implement one method per routing key, then consume with
 * {@code RetryingConsumer.builder(connection, NotificationsHandler.routes(handler)).start()}, or, with
 * retry-spring-boot-starter, make the implementation a bean. A method that returns acknowledges its message; one
 * that throws fails the attempt, and the retry policy decides what follows.
 *
 * <p>Generated from kept-queue.yml; do not edit.
 */
@Generated("io.github.retrytopology:retry-maven-plugin")
public interface NotificationsHandler {

    /**
     * Handles the messages routed with <code>user.created</code>.
     */
    void userCreated(DeliveryContext context) throws Exception;

    /**
     * Routes the messages of this service to {@code handler}: each to the first of its routing keys, in the
     * order the spec lists them, that matches.
     */
    static Routes routes(NotificationsHandler handler) {
        Routes.Builder routes = Routes.builder(RetryTopology.NOTIFICATIONS);
        routes.on("user.created", handler::userCreated);
        return routes.build();
    }
}
