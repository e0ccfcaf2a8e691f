package io.github.retrytopology.spring;

import io.github.retrytopology.model.Service;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;

/**
 * Configures the consumer of each service before it starts, beyond what {@code retry.*} properties set: a listener,
 * an observer, the confirm timeout. Every bean of this type is called, in order; the starter's own add metrics and
 * tracing where the application has them.
 */
@FunctionalInterface
public interface RetryConsumerCustomizer {

    /** Configures the consumer of {@code service}. */
    void customize(Service service, RetryingConsumer.Builder builder);

    /** Called once the consumer of a service has started. */
    default void started(RetryingConsumer consumer) {
    }
}
