package io.github.retrytopology.runtime.consumer;

import static java.util.Objects.requireNonNull;

import com.rabbitmq.client.BlockedListener;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.Recoverable;
import com.rabbitmq.client.RecoveryListener;
import io.github.retrytopology.model.Protocol;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.classes.ClassCheck;
import io.github.retrytopology.model.topology.BrokerVersion;
import io.github.retrytopology.runtime.codec.PayloadCodec;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
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
 * consumer.close(); // lets the deliveries being handled finish, requeues the rest, closes its channels
 * }</pre>
 *
 * <p>What it promises: no message is lost, and none is parked before its attempts are spent.
 * <ul>
 *   <li>A republish that the broker refuses, returns or does not confirm is sent again after a back-off while
 *       the delivery waits unacknowledged: the handler does not run again, and the delivery's count toward a
 *       quorum queue's delivery limit does not rise.
 *   <li>The consumers start cautious, one delivery at a time, and are cautious again after their connection was
 *       lost: the deliveries that come back after a crash come first, one by one, so that a message that
 *       crashes its process takes no neighbour with it to a quorum queue's delivery limit. See
 *       {@code Admission}.
 *   <li>A consumer that the broker cancels, or whose channel closes on an error, subscribes again with a
 *       back-off; {@link #isRunning()} and the listener say when it is lost and restored. The Java client's
 *       automatic connection recovery is supported: what was in flight on the lost connection is requeued by the
 *       broker, and nothing of it is answered or republished on the recovered one.
 * </ul>
 */
public final class RetryingConsumer implements ServiceConsumer {

    private static final Logger log = LoggerFactory.getLogger(RetryingConsumer.class);

    /** The largest prefetch: AMQP's {@code basic.qos} counts it in 16 bits. */
    public static final int MAX_PREFETCH = 65_535;

    /** How long {@link #close()} waits for deliveries in flight. */
    public static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(30);

    private static final long FIRST_BACK_OFF = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long LAST_BACK_OFF = TimeUnit.SECONDS.toNanos(5);
    /**
     * How many deliveries in a row the broker must hand out for the first time before cautious consumers take
     * their full prefetch. A quorum queue hands out the deliveries that came back before any other, so the
     * first one that did not come back says they are past; a few more make sure.
     */
    static final int CAUTIOUS_RUN = 10;
    /** How long a consumer that could take deliveries may receive none before the queue is asked why. */
    private static final long IDLE_CHECK_NANOS = TimeUnit.SECONDS.toNanos(5);
    /**
     * The first RabbitMQ that cancels the consumers of a quorum queue deleted and declared again at once, as it
     * cancels those of any deleted queue: older ones neither cancel nor serve them, and idle consumers are checked.
     */
    private static final BrokerVersion CANCELS_CONSUMERS_OF_REDECLARED_QUEUES = BrokerVersion.parse("4.0.0");

    private final ConsumerContext context;
    private final Service service;
    private final List<ChannelConsumer> consumers = new ArrayList<>();
    private final BlockedListener blocked;
    private final RecoveryListener recovery;
    /** The first stop's result, which a second stop waits for. */
    private final AtomicReference<CompletableFuture<Boolean>> stopping = new AtomicReference<>();
    /** When the control lane reviews the subscriptions next, if a review is scheduled; the control lane's alone. */
    private long nextReview = Long.MAX_VALUE;

    private RetryingConsumer(ConsumerContext context) {
        this.context = context;
        this.service = context.settings.service();
        this.blocked = new BlockedListener() {
            @Override
            public void handleBlocked(String reason) {
                context.blocked(true);
                log.warn("The broker blocks the connection of {}'s consumers: {}", service.queue(), reason);
            }

            @Override
            public void handleUnblocked() {
                context.blocked(false);
                log.info("The broker unblocked the connection of {}'s consumers", service.queue());
            }
        };
        // The client recovers a connection's channels first, then the queues, bindings and consumers it recorded (an
        // application's own, on a connection it shares): the consumers subscribe again once all of that is back.
        this.recovery = new RecoveryListener() {
            @Override
            public void handleRecoveryStarted(Recoverable recoverable) {
                context.recovering(true);
            }

            @Override
            public void handleRecovery(Recoverable recoverable) {
                context.recovering(false);
                context.control.execute(RetryingConsumer.this::review);
            }
        };
    }

    /** The consumers and their lanes, for the tests of who runs what. */
    List<ChannelConsumer> channelConsumers() {
        return List.copyOf(consumers);
    }

    ConsumerContext context() {
        return context;
    }

    /** Starts configuring a consumer of the service that {@code routes} belong to. */
    public static Builder builder(Connection connection, Routes routes) {
        return new Builder(requireNonNull(connection, "connection"), requireNonNull(routes, "routes"));
    }

    /** The service whose queue this consumes. */
    @Override
    public Service service() {
        return service;
    }

    /** How many deliveries are being handled, wait to be, or wait for their republish to be confirmed. */
    @Override
    public int inFlight() {
        return context.inFlight.count();
    }

    /** How many of its consumers are subscribed to the queue now. */
    @Override
    public int consumersRunning() {
        if (context.isStopped()) {
            return 0;
        }
        int running = 0;
        for (ChannelConsumer consumer : consumers) {
            if (consumer.subscription().isSubscribed()) {
                running++;
            }
        }
        return running;
    }

    /**
     * Whether it receives deliveries: not stopped, and every consumer that should be subscribed is. While it is
     * cautious (see the class comment), one consumer is subscribed by design.
     */
    @Override
    public boolean isRunning() {
        if (context.isStopped()) {
            return false;
        }
        boolean open = context.admission.isOpen();
        for (int i = 0; i < consumers.size(); i++) {
            if ((open || i == 0) && !consumers.get(i).subscription().isSubscribed()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Stops consuming: deliveries not yet handled, and those whose republish waits out a back-off, go back to
     * the queue at once; those in a handler finish, and their republishes are confirmed, within {@code timeout}.
     * Then the channels close, and the broker requeues whatever is still unanswered. A second call waits for the
     * first to end, and says what it said.
     *
     * @return whether every delivery in flight was answered in time
     */
    @Override
    public boolean stop(Duration timeout) throws InterruptedException {
        CompletableFuture<Boolean> mine = new CompletableFuture<>();
        CompletableFuture<Boolean> first = stopping.compareAndExchange(null, mine);
        if (first != null) {
            try {
                return first.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("stopping the consumers of " + service.queue() + " failed",
                        e.getCause());
            }
        }
        try {
            boolean idle = stopConsumers(timeout);
            mine.complete(idle);
            return idle;
        } catch (InterruptedException | RuntimeException e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            shutDown();
        }
    }

    private boolean stopConsumers(Duration timeout) throws InterruptedException {
        context.stopping();
        try {
            context.control.await(() -> consumers.forEach(consumer -> consumer.subscription().cancel()));
        } finally {
            context.unsubscribed();
        }
        context.settlement.await(() -> consumers.forEach(
                consumer -> consumer.subscription().life().republisher.requeueWaiting()));
        boolean idle = context.inFlight.awaitIdle(timeout);
        if (!idle) {
            log.warn("{} deliveries of {} were still in flight after {}; the broker requeues them",
                    context.inFlight.count(), service.queue(), timeout);
            consumers.forEach(ChannelConsumer::interruptHandler);
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
        }
    }

    private void shutDown() {
        context.stopping();
        context.unsubscribed();
        context.control.stop();
        context.settlement.stop();
        context.connection.removeBlockedListener(blocked);
        if (context.connection instanceof Recoverable recoverable) {
            recoverable.removeRecoveryListener(recovery);
        }
        consumers.forEach(ChannelConsumer::close);
    }

    /**
     * Brings the consumers in line with the admission: all of them at the configured prefetch when open, only
     * the first, with a prefetch of 1, when cautious. On the control lane, after each event that can change them;
     * a consumer waiting out a back-off has it review them again then, and none waits for a timer otherwise.
     */
    private void review() {
        context.control.checkOwned();
        if (context.isStopped()) {
            return;
        }
        long now = context.settings.ticker().nanos();
        boolean open = context.admission.isOpen();
        long next = Long.MAX_VALUE;
        for (int i = 0; i < consumers.size(); i++) {
            next = Math.min(next, consumers.get(i).subscription().steer(open || i == 0,
                    open ? context.settings.prefetch() : 1, now));
        }
        if (next != Long.MAX_VALUE && (nextReview == Long.MAX_VALUE || next - nextReview < 0)) {
            long at = next;
            nextReview = at;
            context.control.schedule(() -> scheduledReview(at), Math.max(0, at - now));
        }
    }

    private void scheduledReview(long at) {
        if (at == nextReview) {
            nextReview = Long.MAX_VALUE;
            review();
        } // else an earlier review was scheduled since, and has run or will
    }

    /**
     * Subscribes again the consumers that could take deliveries but have received none for a while, if the queue
     * holds ready messages meanwhile: the broker does not serve them, and did not say so. On the control lane,
     * every few seconds, on brokers older than {@link #CANCELS_CONSUMERS_OF_REDECLARED_QUEUES} only.
     */
    private void checkIdle() {
        context.control.checkOwned();
        if (context.isStopped()) {
            return;
        }
        long now = context.settings.ticker().nanos();
        context.control.schedule(this::checkIdle, IDLE_CHECK_NANOS);
        List<Subscription> idle = consumers.stream().map(ChannelConsumer::subscription)
                .filter(subscription -> subscription.idleSince(now, IDLE_CHECK_NANOS)).toList();
        if (idle.isEmpty()) {
            return;
        }
        long ready;
        try {
            ready = idle.get(0).readyMessages();
        } catch (IOException | RuntimeException e) {
            log.debug("Could not count the ready messages of {}", service.queue(), e);
            return;
        }
        if (ready > 0) {
            String reason = "received nothing for " + TimeUnit.NANOSECONDS.toSeconds(IDLE_CHECK_NANOS) + " s while "
                    + ready + " message(s) were ready in " + service.queue();
            idle.forEach(subscription -> subscription.resubscribe(reason));
        }
    }

    /** Sends again what the broker has not confirmed in time; says whether any send still waits. */
    private boolean expireOverdue() {
        long now = context.settings.ticker().nanos();
        boolean waiting = false;
        for (ChannelConsumer consumer : consumers) {
            waiting |= consumer.subscription().life().republisher.expireOverdue(now);
        }
        return waiting;
    }

    /** The pause before the {@code n}th attempt in a row, from 1: 100 ms, doubled each time up to 5 s. */
    static long backOff(int attempt) {
        int doublings = Math.min(Math.max(attempt - 1, 0), 6);
        return Math.min(FIRST_BACK_OFF << doublings, LAST_BACK_OFF);
    }

    /** An exception as a sentence, for logs and listeners. */
    static String describe(Throwable e) {
        Throwable cause = e;
        while (cause.getMessage() == null && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getMessage() == null ? cause.getClass().getName() : cause.getMessage();
    }

    /** Configures a {@link RetryingConsumer}; every setting has a default. */
    public static final class Builder {
        private final Connection connection;
        private final Routes routes;
        private int prefetch = 20;
        private int consumers = 1;
        private PayloadCodec codec = PayloadCodec.builtIn();
        private final List<RetryListener> listeners = new ArrayList<>();
        private final List<DeliveryObserver> observers = new ArrayList<>();
        private Duration confirmTimeout = Duration.ofSeconds(30);
        private Clock clock = Clock.systemUTC();
        private Ticker ticker = Ticker.system();

        private Builder(Connection connection, Routes routes) {
            this.connection = connection;
            this.routes = routes;
        }

        /** How many unacknowledged deliveries each consumer may hold; 20 by default. */
        public Builder prefetch(int prefetch) {
            if (prefetch < 1 || prefetch > MAX_PREFETCH) {
                throw new IllegalArgumentException("prefetch is between 1 and " + MAX_PREFETCH + ", got " + prefetch);
            }
            this.prefetch = prefetch;
            return this;
        }

        /**
         * How many consumers handle deliveries in parallel, each on a channel of its own; 1 by default. A
         * consumer's deliveries are handled one at a time, in order, on the connection's dispatch threads, so the
         * consumers run in parallel only as far as those threads go: the client's pool has twice the processors by
         * default, shared by every consumer of the connection; give the connection's factory a pool of its own
         * ({@code ConnectionFactory.setSharedExecutor}) with a thread per consumer, as the Spring Boot starter does.
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

        /**
         * Adds a listener of successes, retries, parks and lost consumers, such as {@code MicrometerRetryMetrics};
         * listeners hear each event in the order they were added. None by default.
         */
        public Builder listener(RetryListener listener) {
            listeners.add(requireNonNull(listener, "listener"));
            return this;
        }

        /**
         * Adds an observer of each delivery's handling, such as a tracer's: it runs on the handler's thread, around
         * the handler. None by default.
         */
        public Builder observer(DeliveryObserver observer) {
            observers.add(requireNonNull(observer, "observer"));
            return this;
        }

        /**
         * How long a republish may wait for the broker's confirm before it is sent once more beside the first
         * (unless the broker blocks publishers, when a second send would only wait too); 30 seconds by default.
         * The delivery stays unacknowledged meanwhile: it is never requeued for a slow confirm.
         */
        public Builder confirmTimeout(Duration confirmTimeout) {
            if (confirmTimeout.isNegative() || confirmTimeout.isZero()) {
                throw new IllegalArgumentException("the confirm timeout must be positive, got " + confirmTimeout);
            }
            this.confirmTimeout = confirmTimeout;
            return this;
        }

        /** The clock of the failure and park times written in headers; the system clock by default. */
        public Builder clock(Clock clock) {
            this.clock = requireNonNull(clock, "clock");
            return this;
        }

        /** The monotonic clock of deadlines and back-offs, for tests that move time by hand. */
        Builder ticker(Ticker ticker) {
            this.ticker = requireNonNull(ticker, "ticker");
            return this;
        }

        /**
         * Opens the channels and starts consuming, cautiously: see the class comment.
         *
         * @throws IllegalStateException if the service is consumed over AMQP 1.0, the codec cannot decode a payload
         *     type of the routes, or the service needs a newer RabbitMQ than the connection's
         * @throws IOException if the broker refuses a channel or the consumer, for example because the queue
         *     does not exist
         */
        public RetryingConsumer start() throws IOException {
            Service service = routes.service();
            if (service.protocol() != Protocol.AMQP_0_9_1) {
                throw new IllegalStateException("service '" + service.name() + "' is consumed over "
                        + service.protocol().id() + ", which gives each retry its own delivery time: start an "
                        + "Amqp10RetryingConsumer for it");
            }
            routes.requireDecodable(codec);
            requireBrokerFor(routes.service());
            ClassCheck.nonRetryableProblems(routes.service()).forEach(log::warn);
            ConsumerSettings settings = ConsumerSettings.of(routes, codec, new Listeners(listeners, observers), clock,
                    ticker, confirmTimeout, prefetch, consumers);
            RetryingConsumer consumer = new RetryingConsumer(new ConsumerContext(settings, connection));
            ControlLane control = consumer.context.control;
            try {
                for (int i = 1; i <= consumers; i++) {
                    consumer.consumers.add(new ChannelConsumer(consumer.context, i, consumer::review));
                }
                consumer.context.confirmDeadlines.lookWith(consumer::expireOverdue);
                // The subscriptions are the control lane's from the first.
                IOException[] refused = new IOException[1];
                control.await(() -> {
                    try {
                        consumer.consumers.get(0).subscription().subscribeOrThrow(1);
                    } catch (IOException e) {
                        refused[0] = e;
                    }
                });
                if (refused[0] != null) {
                    throw refused[0];
                }
            } catch (InterruptedException e) {
                consumer.shutDown();
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while the consumers of " + consumer.service.queue()
                        + " started");
            } catch (IOException | RuntimeException e) {
                consumer.shutDown();
                throw e;
            }
            connection.addBlockedListener(consumer.blocked);
            if (connection instanceof Recoverable recoverable) {
                recoverable.addRecoveryListener(consumer.recovery);
            }
            if (!brokerAtLeast(CANCELS_CONSUMERS_OF_REDECLARED_QUEUES)) {
                control.schedule(consumer::checkIdle, IDLE_CHECK_NANOS);
            }
            log.info("Consuming {} with {} consumer(s), prefetch {}", consumer.service.queue(), consumers, prefetch);
            return consumer;
        }

        /** Whether the connection's broker is this version or later; taken to be, if it does not say. */
        private boolean brokerAtLeast(BrokerVersion version) {
            try {
                return BrokerVersion.parse(String.valueOf(connection.getServerProperties().get("version")))
                        .atLeast(version);
            } catch (IllegalArgumentException unreadable) {
                return true;
            }
        }

        /**
         * Refuses to consume for a service whose retries the broker delays from a broker that cannot: it would take
         * the rejects as plain requeues and hand each retry back at once, until the delivery limit parked it.
         */
        private void requireBrokerFor(Service service) {
            Optional<BrokerVersion> required = BrokerVersion.requiredBy(List.of(service));
            if (required.isEmpty()) {
                return;
            }
            Object reported = connection.getServerProperties().get("version");
            BrokerVersion version;
            try {
                version = BrokerVersion.parse(String.valueOf(reported));
            } catch (IllegalArgumentException unreadable) {
                log.warn("{}: the broker reports its version as '{}'; it is taken to delay retries, as {} needs",
                        service.name(), reported, "delayBy: broker");
                return;
            }
            if (!version.atLeast(required.get())) {
                throw new IllegalStateException("service '" + service.name() + "' has the broker delay its retries "
                        + "(delayBy: broker), which needs RabbitMQ " + required.get() + " or later; the broker at "
                        + connection.getAddress().getHostAddress() + ":" + connection.getPort() + " is RabbitMQ "
                        + version);
            }
        }
    }
}
