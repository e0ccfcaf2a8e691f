package io.github.retrytopology.spring;

import com.rabbitmq.client.amqp.AmqpException;
import com.rabbitmq.client.amqp.Connection;
import com.rabbitmq.client.amqp.ConnectionBuilder;
import com.rabbitmq.client.amqp.Environment;
import com.rabbitmq.client.amqp.Resource;
import com.rabbitmq.client.amqp.impl.AmqpEnvironmentBuilder;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.topology.BrokerVersion;
import io.github.retrytopology.runtime.codec.PayloadCodec;
import io.github.retrytopology.runtime.consumer.Amqp10RetryingConsumer;
import io.github.retrytopology.runtime.consumer.ServiceConsumer;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The AMQP 1.0 connection through RabbitMQ's AMQP 1.0 Java client ({@code com.rabbitmq.client:amqp-client} 1.x): a
 * {@link Connection} of an {@link Environment} of the starter's own, with the client's recovery on, whose dispatching
 * executor has a thread per consumer, as the AMQP 0.9.1 connection has. A bean only where the client is on the class
 * path ({@link RetryAutoConfiguration}).
 */
final class ClientAmqp10Connector implements Amqp10Connector {

    private static final Logger log = LoggerFactory.getLogger(ClientAmqp10Connector.class);

    /** Made by the first connection; guarded by this connector. */
    private Environment environment;

    @Override
    public Opened open(Amqp10Settings settings, List<Service> services, int threads, String name,
            String brokerVersion) throws Unavailable {
        AtomicInteger count = new AtomicInteger();
        ExecutorService dispatch = Executors.newFixedThreadPool(threads, task -> {
            Thread thread = new Thread(task, "retry-amqp10-handler-" + count.incrementAndGet());
            thread.setDaemon(false);
            return thread;
        });
        ConnectionState state = new ConnectionState(settings);
        try {
            ConnectionBuilder builder = environment().connectionBuilder()
                    .uris(settings.addresses().stream().map(address -> uri(address, settings.sslContext() != null))
                            .toArray(String[]::new))
                    .virtualHost(settings.vhost())
                    .name(name)
                    .dispatchingExecutor(dispatch)
                    .listeners(state::changed);
            if (settings.username() != null) {
                builder.username(settings.username()).password(settings.password());
            }
            if (settings.sslContext() != null) {
                builder.tls().sslContext(settings.sslContext()).hostnameVerification(settings.verifyHostname());
            }
            Connection connection = builder.build();
            state.opened();
            return new Open(connection, dispatch, state, settings);
        } catch (RuntimeException e) {
            dispatch.shutdownNow();
            throw unavailable(settings, services, brokerVersion, e);
        }
    }

    private synchronized Environment environment() {
        if (environment == null) {
            environment = new AmqpEnvironmentBuilder().build();
        }
        return environment;
    }

    @Override
    public synchronized void close() {
        if (environment != null) {
            try {
                environment.close();
            } catch (RuntimeException e) {
                log.debug("Closing the AMQP 1.0 environment failed", e);
            }
            environment = null;
        }
    }

    private static String uri(Amqp10Settings.Address address, boolean tls) {
        try {
            return new URI(tls ? "amqps" : "amqp", null, address.host(), address.port(), null, null, null).toString();
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a host for an AMQP 1.0 URI: '" + address.host() + "'", e);
        }
    }

    /**
     * Says why the connection failed. A broker that answers the client in AMQP 0.9.1, as RabbitMQ 3 does, or that the
     * client finds older than 4.0, has no AMQP 1.0 for it; where the AMQP 0.9.1 connection found the broker older
     * than 4.3.1, the message says so too.
     */
    static Unavailable unavailable(Amqp10Settings settings, List<Service> services, String brokerVersion,
            RuntimeException failure) {
        String names = names(services);
        String words = words(failure);
        BrokerVersion version = version(brokerVersion);
        String problem = names + " (protocol: amqp-1.0) could not connect over AMQP 1.0 to RabbitMQ at "
                + settings.describe() + ", virtual host '" + settings.vhost() + "': ";
        String needs = "protocol: amqp-1.0 needs RabbitMQ " + BrokerVersion.DELAYED_RETRY + " or later";
        if (noAmqp10(failure)) {
            return new Unavailable(problem + "the broker" + (version == null ? "" : ", RabbitMQ " + version + ",")
                    + " does not speak AMQP 1.0 (" + words + "); " + needs, "Upgrade RabbitMQ to "
                    + BrokerVersion.DELAYED_RETRY + " or later, or consume " + names + " over AMQP 0.9.1 with "
                    + "'protocol: amqp-0.9.1' in retry.yml; or set retry.fail-fast=false to start the application and "
                    + "consume as soon as the broker speaks AMQP 1.0.", failure);
        }
        boolean old = version != null && !version.atLeast(BrokerVersion.DELAYED_RETRY);
        return new Unavailable(problem + words + (old ? "; the broker is RabbitMQ " + version + ", and " + needs : ""),
                "Start RabbitMQ, or point spring.rabbitmq.addresses at it, and retry.amqp10.host and "
                        + "retry.amqp10.port at its AMQP 1.0 listener where they differ; or set retry.fail-fast=false "
                        + "to start the application and consume as soon as the broker answers.", failure);
    }

    private static BrokerVersion version(String reported) {
        if (reported == null) {
            return null;
        }
        try {
            return BrokerVersion.parse(reported);
        } catch (IllegalArgumentException unreadable) {
            return null;
        }
    }

    /** Whether the client met a broker without AMQP 1.0: RabbitMQ 3 answers its header with AMQP 0.9.1's. */
    private static boolean noAmqp10(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            String message = String.valueOf(cause.getMessage());
            if (cause.getClass().getSimpleName().contains("AMQPHeader") || message.contains("header byte")
                    || message.contains("requires RabbitMQ 4.0")) {
                return true;
            }
        }
        return false;
    }

    /** The client's own words: the first message among the causes. */
    private static String words(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause.getMessage() != null && !cause.getMessage().isBlank()) {
                return cause.getMessage();
            }
        }
        return failure.getClass().getName();
    }

    private static String names(List<Service> services) {
        return services.stream().map(service -> "'" + service.name() + "'")
                .collect(Collectors.joining(", ", services.size() == 1 ? "service " : "services ", ""));
    }

    /** Whether the connection is open, as the client's state events say; logs its loss and its recovery. */
    private static final class ConnectionState {
        private final AtomicReference<Resource.State> state = new AtomicReference<>(Resource.State.OPENING);
        private final Amqp10Settings settings;

        ConnectionState(Amqp10Settings settings) {
            this.settings = settings;
        }

        void changed(Resource.Context context) {
            Resource.State previous = state.getAndSet(context.currentState());
            if (context.currentState() == Resource.State.RECOVERING && previous != Resource.State.RECOVERING) {
                log.warn("The retry consumers' AMQP 1.0 connection to {} is lost ({}); the client recovers it",
                        settings.describe(), context.failureCause() == null ? "closed"
                                : words(context.failureCause()));
            } else if (context.currentState() == Resource.State.OPEN && previous == Resource.State.RECOVERING) {
                log.info("The retry consumers' AMQP 1.0 connection to {} is recovered", settings.describe());
            }
        }

        void opened() {
            state.compareAndSet(Resource.State.OPENING, Resource.State.OPEN);
        }

        boolean isOpen() {
            return state.get() == Resource.State.OPEN;
        }
    }

    /** An open connection and its dispatch threads. */
    private static final class Open implements Opened {
        private final Connection connection;
        private final ExecutorService dispatch;
        private final ConnectionState state;
        private final Amqp10Settings settings;

        Open(Connection connection, ExecutorService dispatch, ConnectionState state, Amqp10Settings settings) {
            this.connection = connection;
            this.dispatch = dispatch;
            this.state = state;
            this.settings = settings;
        }

        @Override
        public boolean isOpen() {
            return state.isOpen();
        }

        @Override
        public ServiceConsumer start(ServiceHandler handler, PayloadCodec codec,
                List<RetryConsumerCustomizer> customizers) {
            Service service = handler.service();
            Amqp10RetryingConsumer.Builder builder = Amqp10RetryingConsumer.builder(connection, handler.routes())
                    .codec(codec)
                    .consumers(handler.settings().getConsumers())
                    .prefetch(handler.settings().getPrefetch());
            customizers.forEach(customizer -> customizer.customize(service, builder));
            Amqp10RetryingConsumer consumer;
            try {
                consumer = builder.start();
            } catch (IllegalStateException e) {
                throw RetryConsumers.cannotConsume(handler, settings.vhost(), "AMQP 1.0", e.getMessage(),
                        "Upgrade RabbitMQ to " + BrokerVersion.DELAYED_RETRY + " or later and keep queue '"
                                + service.queue() + "' a quorum queue, as retry.yml declares it; or consume service '"
                                + service.name() + "' over AMQP 0.9.1 with 'protocol: amqp-0.9.1' in retry.yml.");
            } catch (AmqpException e) {
                throw RetryConsumers.cannotConsume(handler, settings.vhost(), "AMQP 1.0", words(e),
                        e instanceof AmqpException.AmqpEntityDoesNotExistException
                                ? RetryConsumers.createQueues(settings.vhost()) : null);
            }
            customizers.forEach(customizer -> customizer.started(consumer));
            return consumer;
        }

        @Override
        public void close() {
            try {
                connection.close();
            } catch (RuntimeException e) {
                log.debug("Closing the AMQP 1.0 connection to {} failed", settings.describe(), e);
            } finally {
                dispatch.shutdown();
            }
        }
    }
}
