package io.github.retrytopology.runtime.consumer;

import static java.util.Objects.requireNonNull;

import com.rabbitmq.client.AlreadyClosedException;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.runtime.codec.PayloadCodec;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes one service's queue and applies its retry policy to every delivery: a handler that returns
 * acknowledges the message; one that throws sends it to the tier its attempt calls for, or to the parking lot,
 * and the delivery is acknowledged only once the broker has confirmed that republish. Retries go straight to
 * the service's own tier queue, never through the shared exchange, so no other service sees them again.
 *
 * <pre>{@code
 * RetryingConsumer consumer = RetryingConsumer.builder(connection, CdnPurgeHandler.routes(new CdnPurge()))
 *         .prefetch(50)
 *         .consumers(4)
 *         .start();
 * ...
 * consumer.close(); // lets deliveries in flight finish, then closes its channels
 * }</pre>
 *
 * <p>The connection's automatic recovery is supported: deliveries in flight when the connection drops are
 * requeued by the broker and delivered again after recovery, and their late answers are ignored.
 */
public final class RetryingConsumer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RetryingConsumer.class);

    /** How long {@link #close()} waits for deliveries in flight. */
    public static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(30);

    private final Service service;
    private final List<Channel> channels;
    private final List<String> consumerTags;
    private final InFlight inFlight;
    private final List<ExecutorService> handlerThreads;
    private final ScheduledExecutorService expiry;
    private volatile boolean stopped;

    private RetryingConsumer(Service service, List<Channel> channels, List<String> consumerTags, InFlight inFlight,
            List<ExecutorService> handlerThreads, ScheduledExecutorService expiry) {
        this.service = service;
        this.channels = channels;
        this.consumerTags = consumerTags;
        this.inFlight = inFlight;
        this.handlerThreads = handlerThreads;
        this.expiry = expiry;
    }

    /** Starts configuring a consumer of the service that {@code routes} belong to. */
    public static Builder builder(Connection connection, Routes routes) {
        return new Builder(requireNonNull(connection, "connection"), requireNonNull(routes, "routes"));
    }

    /** The service whose queue this consumes. */
    public Service service() {
        return service;
    }

    /** How many deliveries are being handled or wait for their republish to be confirmed. */
    public int inFlight() {
        return inFlight.count();
    }

    /**
     * Stops consuming, waits up to {@code timeout} for the deliveries in flight to finish and their republishes
     * to be confirmed, then closes the channels; the broker requeues whatever is still unanswered.
     *
     * @return whether every delivery in flight finished in time
     */
    public boolean stop(Duration timeout) throws InterruptedException {
        if (stopped) {
            return true;
        }
        stopped = true;
        for (int i = 0; i < channels.size(); i++) {
            try {
                channels.get(i).basicCancel(consumerTags.get(i));
            } catch (IOException | AlreadyClosedException e) {
                log.debug("Could not cancel consumer {} of {}", consumerTags.get(i), service.queue(), e);
            }
        }
        boolean idle = inFlight.awaitIdle(timeout);
        if (!idle) {
            log.warn("{} deliveries of {} were still in flight after {}; the broker requeues them",
                    inFlight.count(), service.queue(), timeout);
        }
        expiry.shutdownNow();
        handlerThreads.forEach(ExecutorService::shutdownNow);
        for (Channel channel : channels) {
            closeQuietly(channel);
        }
        return idle;
    }

    /** Stops within {@link #DEFAULT_STOP_TIMEOUT}; see {@link #stop(Duration)}. */
    @Override
    public void close() {
        try {
            stop(DEFAULT_STOP_TIMEOUT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            expiry.shutdownNow();
            handlerThreads.forEach(ExecutorService::shutdownNow);
            channels.forEach(RetryingConsumer::closeQuietly);
        }
    }

    private static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    private static void closeQuietly(Channel channel) {
        try {
            if (channel.isOpen()) {
                channel.close();
            }
        } catch (IOException | TimeoutException | AlreadyClosedException e) {
            log.debug("Could not close channel {}", channel.getChannelNumber(), e);
        }
    }

    /** Configures a {@link RetryingConsumer}; every setting has a default. */
    public static final class Builder {
        private final Connection connection;
        private final Routes routes;
        private int prefetch = 20;
        private int consumers = 1;
        private PayloadCodec codec = PayloadCodec.builtIn();
        private RetryListener listener = new RetryListener() {
        };
        private Duration confirmTimeout = Duration.ofSeconds(30);
        private Clock clock = Clock.systemUTC();

        private Builder(Connection connection, Routes routes) {
            this.connection = connection;
            this.routes = routes;
        }

        /** How many unacknowledged deliveries each consumer may hold; 20 by default. */
        public Builder prefetch(int prefetch) {
            if (prefetch < 1 || prefetch > 65_535) {
                throw new IllegalArgumentException("prefetch is between 1 and 65535, got " + prefetch);
            }
            this.prefetch = prefetch;
            return this;
        }

        /**
         * How many consumers handle deliveries in parallel, each on a channel and a thread of its own, so that
         * parallelism does not depend on the connection's dispatch threads; 1 by default.
         */
        public Builder consumers(int consumers) {
            if (consumers < 1) {
                throw new IllegalArgumentException("at least one consumer, got " + consumers);
            }
            this.consumers = consumers;
            return this;
        }

        /** How payloads are decoded; {@link PayloadCodec#builtIn()} by default. */
        public Builder codec(PayloadCodec codec) {
            this.codec = requireNonNull(codec, "codec");
            return this;
        }

        /** Who hears of successes, retries and parks; nobody by default. */
        public Builder listener(RetryListener listener) {
            this.listener = requireNonNull(listener, "listener");
            return this;
        }

        /**
         * How long to wait for the broker to confirm a retry or park before requeueing the delivery instead;
         * 30 seconds by default.
         */
        public Builder confirmTimeout(Duration confirmTimeout) {
            if (confirmTimeout.isNegative() || confirmTimeout.isZero()) {
                throw new IllegalArgumentException("the confirm timeout must be positive, got " + confirmTimeout);
            }
            this.confirmTimeout = confirmTimeout;
            return this;
        }

        /** The clock for failure times and confirm deadlines; the system clock by default. */
        public Builder clock(Clock clock) {
            this.clock = requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Opens the channels and starts consuming.
         *
         * @throws IllegalStateException if the codec cannot decode a payload type of the routes
         * @throws IOException if the broker refuses a channel or the consumer, for example because the queue
         *     does not exist
         */
        public RetryingConsumer start() throws IOException {
            routes.requireDecodable(codec);
            Service service = routes.service();
            ChannelConsumer.Settings settings = new ChannelConsumer.Settings(codec, listener, clock, confirmTimeout);
            InFlight inFlight = new InFlight();
            List<Channel> channels = new ArrayList<>();
            List<ChannelConsumer> channelConsumers = new ArrayList<>();
            List<ExecutorService> handlerThreads = new ArrayList<>();
            List<String> tags = new ArrayList<>();
            ScheduledExecutorService expiry = Executors.newSingleThreadScheduledExecutor(
                    daemon("retry-confirm-expiry-" + service.name()));
            try {
                for (int i = 1; i <= consumers; i++) {
                    Channel channel = connection.createChannel();
                    if (channel == null) {
                        throw new IOException("the connection has no channel left to open");
                    }
                    channels.add(channel);
                    channel.basicQos(prefetch);
                    ExecutorService handlerThread = Executors.newSingleThreadExecutor(
                            daemon("retry-" + service.name() + "-" + i));
                    handlerThreads.add(handlerThread);
                    ChannelConsumer consumer = new ChannelConsumer(channel, routes, settings, inFlight, handlerThread);
                    channelConsumers.add(consumer);
                    tags.add(channel.basicConsume(service.queue(), false, consumer));
                }
            } catch (IOException | RuntimeException e) {
                expiry.shutdownNow();
                handlerThreads.forEach(ExecutorService::shutdownNow);
                channels.forEach(RetryingConsumer::closeQuietly);
                throw e;
            }
            long period = Math.max(10, confirmTimeout.toMillis() / 4);
            expiry.scheduleWithFixedDelay(() -> channelConsumers.forEach(ChannelConsumer::expire),
                    period, period, TimeUnit.MILLISECONDS);
            log.info("Consuming {} with {} consumer(s), prefetch {}", service.queue(), consumers, prefetch);
            return new RetryingConsumer(service, List.copyOf(channels), List.copyOf(tags), inFlight,
                    List.copyOf(handlerThreads), expiry);
        }
    }
}
