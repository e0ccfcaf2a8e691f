package io.github.retrytopology.spring;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConnectionFactory;
import io.github.retrytopology.model.Protocol;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.runtime.codec.PayloadCodec;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.consumer.ServiceConsumer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.amqp.autoconfigure.RabbitConnectionDetails;
import org.springframework.context.SmartLifecycle;

/**
 * The consumers of every service that has a handler bean, started and stopped with the application context
 * (unless {@code retry.auto-startup} is off, when {@link #start()} starts them), and started again after a stop.
 * Each service is consumed over the protocol its spec names: a {@link RetryingConsumer} over AMQP 0.9.1, or an
 * {@code Amqp10RetryingConsumer} over AMQP 1.0 ({@code protocol: amqp-1.0}), on a second connection that is opened
 * only where such a service is consumed, with RabbitMQ's AMQP 1.0 client.
 *
 * <p>They start last and stop first ({@link SmartLifecycle#DEFAULT_PHASE}), so that handlers never run before the
 * beans they use are ready or after those beans are gone. On shutdown the deliveries in a handler finish, and
 * their republishes are confirmed, within Boot's {@code spring.lifecycle.timeout-per-shutdown-phase}; the ones
 * not yet handed to a handler go back to the queue at once.
 *
 * <p>A broker that does not answer at start-up does not fail it, unless {@code retry.fail-fast} is on: the
 * consumers try again in the background, waiting longer each time up to {@link #LAST_RETRY}, and consume as soon as
 * it answers; so does a broker that answers AMQP 0.9.1 but not AMQP 1.0, where a service needs it. A broker that
 * answers and refuses a service's queue, or is older than RabbitMQ 4.3.1 where a service is consumed over AMQP 1.0,
 * fails the start-up, naming the service.
 */
public final class RetryConsumers implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RetryConsumers.class);

    /** The first wait before connecting again to a broker that did not answer; it doubles up to the last. */
    static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    static final Duration LAST_RETRY = Duration.ofSeconds(16);

    private final List<ServiceHandler> handlers;
    private final List<RetrySpec> specs;
    private final ConnectionFactory factory;
    private final RabbitConnectionDetails details;
    private final PayloadCodec codec;
    private final List<RetryConsumerCustomizer> customizers;
    private final RetryProperties properties;
    private final Duration stopTimeout;
    private final String connectionName;
    private final String vhost;
    /** Null where no service is consumed over AMQP 1.0. */
    private final Amqp10Connector amqp10;
    private final Amqp10Settings amqp10Settings;

    /**
     * Taken by start, stop and the background connect; the health indicator reads the fields below without it, and
     * never waits.
     */
    private final Object lock = new Object();
    private volatile Connections connection;
    private volatile Map<Service, ServiceConsumer> consumers = Map.of();
    private volatile boolean running;
    /** Why the consumers are not connected while they wait for the broker; null otherwise. */
    private volatile String notConnected;
    /** Counts the tries to connect in the background; a stop or a newer try makes an older one give up. */
    private long attempts;
    /** The thread of those tries, from the first until they connect or the consumers stop; guarded by the lock. */
    private ScheduledExecutorService reconnecting;

    RetryConsumers(List<ServiceHandler> handlers, List<RetrySpec> specs, ConnectionFactory factory,
            RabbitConnectionDetails details, PayloadCodec codec, List<RetryConsumerCustomizer> customizers,
            RetryProperties properties, Duration stopTimeout, String connectionName, String vhost,
            Amqp10Connector amqp10, Amqp10Settings amqp10Settings) {
        this.handlers = List.copyOf(handlers);
        this.specs = List.copyOf(specs);
        this.factory = factory;
        this.details = details;
        this.codec = codec;
        this.customizers = List.copyOf(customizers);
        this.properties = properties;
        this.stopTimeout = stopTimeout;
        this.connectionName = connectionName;
        this.vhost = vhost;
        if (amqp10 == null && !amqp10Services().isEmpty()) {
            throw new IllegalArgumentException("services " + amqp10Services() + " are consumed over AMQP 1.0, and "
                    + "no connector opens its connection");
        }
        this.amqp10 = amqp10;
        this.amqp10Settings = amqp10Settings;
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

    /**
     * Whether the consumers hold an open connection to the broker: over AMQP 0.9.1, and over AMQP 1.0 too where a
     * service is consumed over it.
     */
    public boolean isConnected() {
        Connections current = connection;
        return current != null && current.isOpen();
    }

    /** Why the consumers are not connected while they wait for the broker to answer; empty otherwise. */
    public Optional<String> notConnected() {
        return Optional.ofNullable(notConnected);
    }

    /** The virtual host the consumers connect to. */
    public String vhost() {
        return vhost;
    }

    /**
     * The running consumer of a service, over the protocol its spec names: a {@link RetryingConsumer} or an
     * {@code Amqp10RetryingConsumer}; null before start or after stop.
     */
    public ServiceConsumer consumer(Service service) {
        return consumers.get(service);
    }

    /**
     * How many messages each parking lot holds, by its service, read with one passive declare per service over the
     * AMQP 0.9.1 connection, whatever protocol the service is consumed over.
     *
     * @throws IOException if the consumers are not connected, or the broker refuses a declare
     */
    public Map<Service, Long> parkingLotDepths() throws IOException {
        if (handlers.isEmpty()) {
            return Map.of();
        }
        Connections current = connection;
        if (current == null || !current.amqp091().connection().isOpen()) {
            throw new IOException("the retry consumers are not connected");
        }
        Map<Service, Long> depths = new LinkedHashMap<>();
        Channel channel = current.amqp091().connection().createChannel();
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
            Connections opened;
            try {
                opened = open();
            } catch (IOException e) {
                if (properties.isFailFast()) {
                    throw new RetryConfigurationException(List.of(e.getMessage()),
                            e instanceof Amqp10Connector.Unavailable unavailable ? unavailable.action()
                                    : "Start RabbitMQ, or point spring.rabbitmq.addresses at it; or set "
                                            + "retry.fail-fast=false to start the application and consume as soon as "
                                            + "the broker answers.");
                }
                running = true;
                notConnected = e.getMessage();
                log.warn("{}; the application starts, and the retry consumers try again in {} s", e.getMessage(),
                        FIRST_RETRY.toSeconds());
                connectLater(FIRST_RETRY);
                return;
            }
            consume(opened);
            running = true;
        }
    }

    /**
     * Tries to connect again, off the lock, until the broker answers or the consumers stop: a connection
     * timeout never holds up a stop.
     */
    private void connectLater(Duration delay) {
        long attempt = ++attempts;
        if (reconnecting == null) {
            reconnecting = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "retry-connect");
                thread.setDaemon(true);
                return thread;
            });
        }
        reconnecting.schedule(() -> {
            String failure;
            try {
                Connections opened = open();
                synchronized (lock) {
                    if (attempts != attempt || !running) {
                        opened.close();
                        if (!running && amqp10 != null) {
                            // A stop came while this try connected: what it opened goes with it.
                            amqp10.close();
                        }
                        return;
                    }
                    consume(opened);
                    notConnected = null;
                    reconnecting.shutdown();
                    reconnecting = null;
                    log.info("The retry consumers connected to RabbitMQ at {}:{}",
                            opened.amqp091().connection().getAddress().getHostAddress(),
                            opened.amqp091().connection().getPort());
                    return;
                }
            } catch (IOException | RuntimeException e) {
                failure = e instanceof RetryConfigurationException refused ? String.join("; ", refused.problems())
                        : e.getMessage();
            }
            synchronized (lock) {
                if (attempts != attempt || !running) {
                    return;
                }
                Duration next = delay.multipliedBy(2).compareTo(LAST_RETRY) > 0 ? LAST_RETRY : delay.multipliedBy(2);
                notConnected = failure;
                log.warn("{}; the retry consumers try again in {} s", failure, next.toSeconds());
                connectLater(next);
            }
        }, delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Opens the AMQP 0.9.1 connection, which also declares the topology and reads the parking lots, then the AMQP
     * 1.0 one where a service needs it; closes the first if the second fails.
     */
    private Connections open() throws IOException {
        int threads = handlers.stream().filter(handler -> handler.service().protocol() != Protocol.AMQP_1_0)
                .mapToInt(handler -> handler.settings().getConsumers()).sum();
        ConsumerConnection amqp091 = ConsumerConnection.open(factory, details, Math.max(1, threads), connectionName);
        List<ServiceHandler> overAmqp10 = handlers.stream()
                .filter(handler -> handler.service().protocol() == Protocol.AMQP_1_0).toList();
        if (overAmqp10.isEmpty()) {
            return new Connections(amqp091, null);
        }
        try {
            Object version = amqp091.connection().getServerProperties().get("version");
            return new Connections(amqp091, amqp10.open(amqp10Settings, amqp10Services(),
                    overAmqp10.stream().mapToInt(handler -> handler.settings().getConsumers()).sum(), connectionName,
                    version == null ? null : version.toString()));
        } catch (IOException | RuntimeException e) {
            amqp091.close();
            throw e;
        }
    }

    private List<Service> amqp10Services() {
        return services().stream().filter(service -> service.protocol() == Protocol.AMQP_1_0).toList();
    }

    /**
     * Declares the topology where asked, then starts every service's consumers on this connection; on a failure,
     * stops those started and closes it.
     *
     * @throws RetryConfigurationException naming the service, the queue, the virtual host and the broker's answer
     *     when a service cannot consume
     */
    private void consume(Connections opened) {
        Map<Service, ServiceConsumer> started = new LinkedHashMap<>();
        connection = opened;
        try {
            if (properties.isDeclareTopology()) {
                try {
                    TopologyDeclaration.declare(specs, opened.amqp091().connection(), properties.getManagement(),
                            details, vhost);
                } catch (IOException e) {
                    throw new UncheckedIOException("the retry topology could not be declared in virtual host '"
                            + vhost + "': " + Refusal.describe(e), e);
                }
            }
            for (ServiceHandler handler : handlers) {
                started.put(handler.service(), start(handler));
            }
        } catch (RuntimeException e) {
            stopAll(started.values());
            throw e;
        }
        consumers = Collections.unmodifiableMap(started);
    }

    private ServiceConsumer start(ServiceHandler handler) {
        Service service = handler.service();
        if (service.protocol() == Protocol.AMQP_1_0) {
            return connection.amqp10().start(handler, codec, customizers);
        }
        RetryingConsumer.Builder builder = RetryingConsumer.builder(connection.amqp091().connection(),
                handler.routes())
                .codec(codec)
                .consumers(handler.settings().getConsumers())
                .prefetch(handler.settings().getPrefetch());
        customizers.forEach(customizer -> customizer.customize(service, builder));
        RetryingConsumer consumer;
        try {
            consumer = builder.start();
        } catch (IOException e) {
            boolean missing = Refusal.of(e).map(refusal -> refusal.code() == Refusal.NOT_FOUND).orElse(false);
            throw cannotConsume(handler, vhost, null, Refusal.describe(e), missing ? createQueues(vhost) : null);
        }
        customizers.forEach(customizer -> customizer.started(consumer));
        return consumer;
    }

    /**
     * Names the service, its queue and virtual host, and says what the broker answered and what to do.
     *
     * @param protocol said where it is not AMQP 0.9.1, such as {@code AMQP 1.0}; else null
     * @param action what to do; null for a refusal that only permissions explain
     */
    static RetryConfigurationException cannotConsume(ServiceHandler handler, String vhost, String protocol,
            String answer, String action) {
        Service service = handler.service();
        String problem = "service '" + service.name() + "' (handler bean '" + handler.beanName() + "') could not "
                + "consume queue '" + service.queue() + "' in virtual host '" + vhost + "'"
                + (protocol == null ? "" : " over " + protocol) + ": " + answer;
        return new RetryConfigurationException(List.of(problem), action != null ? action
                : "Check that the user of spring.rabbitmq may consume from virtual host '" + vhost + "'.");
    }

    /** What to do about a queue of retry.yml that the virtual host does not have. */
    static String createQueues(String vhost) {
        return "Create the queues of retry.yml in virtual host '" + vhost + "' before the application starts: import "
                + "the generated definitions.vhost.json (POST /api/definitions/"
                + URLEncoder.encode(vhost, StandardCharsets.UTF_8) + " of the management API), or run the command "
                + "line's 'apply' with --uri naming the virtual host; in development, retry.declare-topology=true "
                + "declares them when the consumers connect. The consumers use spring.rabbitmq.virtual-host where it "
                + "is set, else the vhost of retry.yml.";
    }

    @Override
    public void stop() {
        synchronized (lock) {
            running = false;
            attempts++;
            if (reconnecting != null) {
                reconnecting.shutdownNow();
                reconnecting = null;
            }
            notConnected = null;
            Collection<ServiceConsumer> stopping = consumers.values();
            consumers = Map.of();
            stopAll(stopping);
            if (amqp10 != null) {
                amqp10.close();
            }
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

    /** Stops these consumers at once, each within the stop timeout, then closes the connections. */
    private void stopAll(Collection<ServiceConsumer> stopping) {
        List<CompletableFuture<Void>> stops = new ArrayList<>();
        for (ServiceConsumer consumer : stopping) {
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

    /**
     * The consumers' connections: over AMQP 0.9.1 always, over AMQP 1.0 where a service is consumed over it.
     *
     * @param amqp10 null where no service is consumed over AMQP 1.0
     */
    private record Connections(ConsumerConnection amqp091, Amqp10Connector.Opened amqp10) implements AutoCloseable {

        boolean isOpen() {
            return amqp091.connection().isOpen() && (amqp10 == null || amqp10.isOpen());
        }

        /** Closes the AMQP 1.0 connection, then the AMQP 0.9.1 one. */
        @Override
        public void close() {
            try {
                if (amqp10 != null) {
                    amqp10.close();
                }
            } finally {
                amqp091.close();
            }
        }
    }
}
