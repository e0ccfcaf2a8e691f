package io.github.retrytopology.spring;

import io.github.retrytopology.model.Service;
import io.github.retrytopology.runtime.codec.PayloadCodec;
import io.github.retrytopology.runtime.consumer.ServiceConsumer;
import java.io.IOException;
import java.util.List;

/**
 * Opens the AMQP 1.0 connection of the services whose spec says {@code protocol: amqp-1.0}, and starts their
 * consumers on it. RabbitMQ's AMQP 1.0 client is optional: its one implementation, {@link ClientAmqp10Connector},
 * is a bean only where the client is on the class path, and these signatures name none of its types, so that
 * {@link RetryConsumers} loads without it.
 *
 * <p>Its connections share one environment of the client, made by the first and kept while the consumers try again
 * to connect, which {@link #close()} closes after them.
 */
interface Amqp10Connector extends AutoCloseable {

    /**
     * Opens a connection with {@code threads} dispatch threads, on which handlers run.
     *
     * @param services the services it is for, named when it cannot be opened
     * @param brokerVersion the RabbitMQ version the AMQP 0.9.1 connection to the same broker reported, if any, to
     *     say why the broker refused AMQP 1.0
     * @throws IOException naming the broker, the services and why, if it cannot be opened
     */
    Opened open(Amqp10Settings settings, List<Service> services, int threads, String name, String brokerVersion)
            throws IOException;

    /** Closes the environment, once the connections it opened are closed; the next {@link #open} makes another. */
    @Override
    void close();

    /** An open AMQP 1.0 connection of the consumers, which recovers by itself once lost. */
    interface Opened extends AutoCloseable {

        /** Whether it is open now, not lost or recovering. */
        boolean isOpen();

        /**
         * Starts the consumers of one service, configured by every customizer, and tells them it started.
         *
         * @throws RetryConfigurationException naming the service, its queue and the virtual host, if the broker is
         *     older than RabbitMQ 4.3.1, or refuses the queue
         */
        ServiceConsumer start(ServiceHandler handler, PayloadCodec codec, List<RetryConsumerCustomizer> customizers);

        /** Closes the connection, then its dispatch threads. */
        @Override
        void close();
    }

    /**
     * The AMQP 1.0 connection could not be opened: the message says where, for which services and why, and
     * {@link #action()} what to do about it, where {@code retry.fail-fast} makes it fail the start-up.
     */
    final class Unavailable extends IOException {

        private static final long serialVersionUID = 1L;

        private final String action;

        Unavailable(String message, String action, Throwable cause) {
            super(message, cause);
            this.action = action;
        }

        String action() {
            return action;
        }
    }
}
