package io.github.retrytopology.spring;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConnectionFactory;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.runtime.codec.PayloadCodec;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.amqp.autoconfigure.RabbitConnectionDetails;
import org.springframework.context.SmartLifecycle;

/**
 * The consumers of every service that has a handler bean, started and stopped with the application context
 * (unless {@code retry.auto-startup} is off, when {@link #start()} starts them), and started again after a stop.
 *
 * <p>They start last and stop first ({@link SmartLifecycle#DEFAULT_PHASE}), so that handlers never run before the
 * beans they use are ready or after those beans are gone. On shutdown the deliveries in a handler finish, and
 * their republishes are confirmed, within Boot's {@code spring.lifecycle.timeout-per-shutdown-phase}; the ones
 * not yet handed to a handler go back to the queue at once.
 */
public final class RetryConsumers implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RetryConsumers.class);

    private final List<ServiceHandler> handlers;
    private final List<RetrySpec> specs;
    private final ConnectionFactory factory;
    private final RabbitConnectionDetails details;
    private final PayloadCodec codec;
    private final List<RetryConsumerCustomizer> customizers;
    private final RetryProperties properties;
    private final Duration stopTimeout;
    private final String connectionName;

    /** Taken by start and stop; the health indicator reads the fields below without it, and never waits. */
    private final Object lock = new Object();
    private volatile ConsumerConnection connection;
    private volatile Map<Service, RetryingConsumer> consumers = Map.of();
    private volatile boolean running;

    RetryConsumers(List<ServiceHandler> handlers, List<RetrySpec> specs, ConnectionFactory factory,
            RabbitConnectionDetails details, PayloadCodec codec, List<RetryConsumerCustomizer> customizers,
            RetryProperties properties, Duration stopTimeout, String connectionName) {
        this.handlers = List.copyOf(handlers);
        this.specs = List.copyOf(specs);
        this.factory = factory;
        this.details = details;
        this.codec = codec;
        this.customizers = List.copyOf(customizers);
        this.properties = properties;
        this.stopTimeout = stopTimeout;
        this.connectionName = connectionName;
    }

    /** The services consumed, in the order of their specs. */
    public List<Service> services() {
        return handlers.stream().map(ServiceHandler::service).toList();
    }

    /** How many consumers each service should have subscribed, by its settings. */
    public int consumersConfigured(Service service) {
        return handlers.stream().filter(handler -> handler.service().equals(service)).findFirst()
                .map(handler -> handler.settings().getConsumers()).orElse(0);
    }

    /** The running consumer of a service; null before start or after stop. */
    public RetryingConsumer consumer(Service service) {
        return consumers.get(service);
    }

    /**
     * How many messages each parking lot holds, by its service, read with one passive declare per service.
     *
     * @throws IOException if the consumers are not connected, or the broker refuses a declare
     */
    public Map<Service, Long> parkingLotDepths() throws IOException {
        if (handlers.isEmpty()) {
            return Map.of();
        }
        ConsumerConnection current = connection;
        if (current == null || !current.connection().isOpen()) {
            throw new IOException("the retry consumers are not connected");
        }
        Map<Service, Long> depths = new LinkedHashMap<>();
        Channel channel = current.connection().createChannel();
        if (channel == null) {
            throw new IOException("the connection has no channel left");
        }
        try {
            for (Service service : services()) {
                depths.put(service, (long) channel.queueDeclarePassive(service.parkingLot()).getMessageCount());
            }
        } finally {
            if (channel.isOpen()) {
                try {
                    channel.close();
                } catch (TimeoutException | IOException e) {
                    channel.abort();
                }
            }
        }
        return depths;
    }

    @Override
    public void start() {
        synchronized (lock) {
            if (running) {
                return;
            }
            if (handlers.isEmpty()) {
                running = true;
                return;
            }
            int threads = handlers.stream().mapToInt(handler -> handler.settings().getConsumers()).sum();
            Map<Service, RetryingConsumer> started = new LinkedHashMap<>();
            try {
                connection = ConsumerConnection.open(factory, details, threads, connectionName);
                if (properties.isDeclareTopology()) {
                    TopologyDeclaration.declare(specs, connection.connection(), properties.getManagement(), details);
                }
                for (ServiceHandler handler : handlers) {
                    started.put(handler.service(), start(handler));
                }
            } catch (IOException e) {
                stopAll(started.values());
                throw new UncheckedIOException("the retry consumers did not start: " + e.getMessage(), e);
            } catch (RuntimeException e) {
                stopAll(started.values());
                throw e;
            }
            consumers = Collections.unmodifiableMap(started);
            running = true;
        }
    }

    private RetryingConsumer start(ServiceHandler handler) throws IOException {
        Service service = handler.service();
        RetryingConsumer.Builder builder = RetryingConsumer.builder(connection.connection(), handler.routes())
                .codec(codec)
                .consumers(handler.settings().getConsumers())
                .prefetch(handler.settings().getPrefetch());
        customizers.forEach(customizer -> customizer.customize(service, builder));
        RetryingConsumer consumer;
        try {
            consumer = builder.start();
        } catch (IOException e) {
            throw new IOException("service " + service.name() + " (handler bean '" + handler.beanName()
                    + "') could not consume " + service.queue() + ": " + e.getMessage(), e);
        }
        customizers.forEach(customizer -> customizer.started(consumer));
        return consumer;
    }

    @Override
    public void stop() {
        synchronized (lock) {
            running = false;
            Collection<RetryingConsumer> stopping = consumers.values();
            consumers = Map.of();
            stopAll(stopping);
        }
    }

    /** Stops on a thread of its own, so that the other beans of this phase stop meanwhile. */
    @Override
    public void stop(Runnable callback) {
        Thread stopping = new Thread(() -> {
            try {
                stop();
            } finally {
                callback.run();
            }
        }, "retry-stop");
        stopping.start();
    }

    /** Stops these consumers at once, each within the stop timeout, then closes the connection. */
    private void stopAll(Collection<RetryingConsumer> stopping) {
        List<CompletableFuture<Void>> stops = new ArrayList<>();
        for (RetryingConsumer consumer : stopping) {
            stops.add(CompletableFuture.runAsync(() -> {
                try {
                    if (!consumer.stop(stopTimeout)) {
                        log.warn("Service {}: deliveries were still being handled after {}; the broker requeues "
                                + "them", consumer.service().name(), stopTimeout);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, task -> new Thread(task, "retry-stop-" + consumer.service().name()).start()));
        }
        stops.forEach(CompletableFuture::join);
        if (connection != null) {
            connection.close();
            connection = null;
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public boolean isAutoStartup() {
        return properties.isAutoStartup();
    }

    @Override
    public int getPhase() {
        return DEFAULT_PHASE;
    }
}
