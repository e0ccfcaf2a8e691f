package com.acme.media.retry;

import io.github.retrytopology.runtime.consumer.DeliveryContext;
import io.github.retrytopology.runtime.consumer.Routes;
import javax.annotation.processing.Generated;

/**
 * Handles the messages of service <code>cdn-purge</code>, which consumes queue <code>cdn-purge</code>.
 *
 * <p>Up to 5 attempts, the retries waiting 10s, 30s, 1m30s and 4m30s; then the parking lot. Parked at once:
 * java.lang.IllegalArgumentException.
 *
 * <p>Implement one method per routing key, then consume with
 * {@code RetryingConsumer.builder(connection, CdnPurgeHandler.routes(handler)).start()}, or, with
 * retry-spring-boot-starter, make the implementation a bean. A method that returns acknowledges its message; one
 * that throws fails the attempt, and the retry policy decides what follows.
 *
 * <p>Generated from cdn-purge.yml; do not edit.
 */
@Generated("io.github.retrytopology:retry-maven-plugin")
public interface CdnPurgeHandler {

    /**
     * Handles the messages routed with <code>photo.deleted</code>.
     */
    void photoDeleted(DeliveryContext context) throws Exception;

    /**
     * Handles the messages routed with <code>album.deleted</code>.
     */
    void albumDeleted(DeliveryContext context) throws Exception;

    /**
     * Routes the messages of this service to {@code handler}: each to the first of its routing keys, in the
     * order the spec lists them, that matches.
     */
    static Routes routes(CdnPurgeHandler handler) {
        Routes.Builder routes = Routes.builder(RetryTopology.CDN_PURGE);
        routes.on("photo.deleted", handler::photoDeleted);
        routes.on("album.deleted", handler::albumDeleted);
        return routes.build();
    }
}
