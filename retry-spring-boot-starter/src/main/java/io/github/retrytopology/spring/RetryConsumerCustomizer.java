package io.github.retrytopology.spring;

import io.github.retrytopology.model.Service;
import io.github.retrytopology.runtime.consumer.Amqp10RetryingConsumer;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.consumer.ServiceConsumer;

/**
 * Configures the consumer of each service before it starts, beyond what {@code retry.*} properties set: a listener,
 * an observer, the confirm timeout. Every bean of this type is called, in order; the starter's own add metrics and
 * tracing where the application has them.
 *
 * <p>A service is consumed over the protocol its spec names, by a consumer whose builder is of its own type: the
 * abstract method configures the AMQP 0.9.1 consumers, and a customizer that should also configure the services of
 * {@code protocol: amqp-1.0} overrides {@link #customize(Service, Amqp10RetryingConsumer.Builder)} too (a lambda
 * configures AMQP 0.9.1 consumers only).
 */
@FunctionalInterface
public interface RetryConsumerCustomizer {

    /** Configures the AMQP 0.9.1 consumer of {@code service}. */
    void customize(Service service, RetryingConsumer.Builder builder);

    /**
     * Configures the AMQP 1.0 consumer of {@code service}, whose spec says {@code protocol: amqp-1.0}; by default,
     * nothing.
     */
    default void customize(Service service, Amqp10RetryingConsumer.Builder builder) {
    }

    /** Called once the consumer of a service has started, over either protocol. */
    default void started(ServiceConsumer consumer) {
    }
}
