package io.github.retrytopology.runtime.consumer;

import static java.util.Objects.requireNonNull;

import com.rabbitmq.client.amqp.AmqpException;
import com.rabbitmq.client.amqp.Connection;
import com.rabbitmq.client.amqp.Consumer;
import com.rabbitmq.client.amqp.Management;
import com.rabbitmq.client.amqp.Message;
import com.rabbitmq.client.amqp.Publisher;
import com.rabbitmq.client.amqp.Resource;
import io.github.retrytopology.model.Protocol;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.classes.ClassCheck;
import io.github.retrytopology.model.decision.Decision;
import io.github.retrytopology.model.topology.BrokerVersion;
import io.github.retrytopology.runtime.amqp10.Amqp10Messages;
import io.github.retrytopology.runtime.codec.PayloadCodec;
import io.github.retrytopology.runtime.headers.RetryHeaders;
import io.github.retrytopology.runtime.internal.Arrival;
import io.github.retrytopology.runtime.internal.HeaderWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes one service's queue over AMQP 1.0, RabbitMQ 4's own protocol, through RabbitMQ's AMQP 1.0 Java client
 * ({@code com.rabbitmq.client:amqp-client} 1.x, which the service brings), and applies the service's retry policy
 * to every delivery, for a service whose spec says {@code protocol: amqp-1.0}. The same generated handlers, routes,
 * codecs, listeners and observers serve it as {@link RetryingConsumer}; what differs is how a failure waits.
 *
 * <pre>{@code
 * Amqp10RetryingConsumer consumer = Amqp10RetryingConsumer.builder(connection, CdnPurgeHandler.routes(new CdnPurge()))
 *         .prefetch(50)
 *         .consumers(4)
 *         .start();
 * ...
 * consumer.close();
 * }</pre>
 *
 * <ul>
 *   <li><b>A retry stays in the service's queue.</b> The delivery is settled {@code modified}, failed, with the
 *       annotation {@code x-opt-delivery-time} set to now plus the delay of its retry, as the spec lists them: the
 *       broker counts the failure in the message's delivery count and holds the message until that time (RabbitMQ
 *       4.3.1 and later, quorum queues). Any delay list works, exponential ones too; no republish, no wait queue.
 *   <li><b>The broker counts the attempts.</b> A delivery's attempt is its delivery count plus one; the queue's
 *       delivery limit, {@code maxAttempts - 1}, is checked before any delay, so the broker parks only a message
 *       whose last attempt ended without an answer. A consumer that crashes or loses its connection while it holds
 *       messages costs each of them an attempt, as RabbitMQ 4.3 counts it, and the queue's own linear delay holds
 *       them back.
 *   <li><b>A park is accepted before the original is.</b> The last failure, and a non-retryable one, is published
 *       to the parking lot with the failure's headers, and the delivery is accepted only once the broker has
 *       accepted that copy; a refusal is sent again after a back-off, the delivery unsettled meanwhile.
 *   <li><b>Threads.</b> Handlers run on the client's dispatching threads, one delivery at a time per consumer; the
 *       client's publisher threads hand park outcomes over; back-offs and deadlines run on the service's settlement
 *       lane. Nothing of ours waits on the client's I/O thread.
 * </ul>
 *
 * <p>Unlike {@link RetryingConsumer} on tier queues it does not start cautious after a crash: the queue holds the
 * message that killed a process back as it holds a failure, so that it comes back among fresh messages rather than
 * first, and the AMQP 1.0 client cannot narrow a link's credit once it is open. The messages a consumer held when
 * its process died come back each one attempt down. Where processes crash often, give it a small prefetch.
 */
public final class Amqp10RetryingConsumer implements ServiceConsumer {

    private static final Logger log = LoggerFactory.getLogger(Amqp10RetryingConsumer.class);

    private final ConsumerSettings settings;
    private final Connection connection;
    private final InFlight inFlight;
    private final SettlementLane lane;
    private final List<Link> links = new CopyOnWriteArrayList<>();
    private final AtomicReference<CompletableFuture<Boolean>> stopping = new AtomicReference<>();
    private volatile boolean stopped;
    private @Nullable Publisher publisher;
    private @Nullable Amqp10Parking parking;

    private Amqp10RetryingConsumer(ConsumerSettings settings, Connection connection) {
        this.settings = settings;
        this.connection = connection;
        this.inFlight = new InFlight(settings.ticker());
        this.lane = new SettlementLane(settings.service().name());
    }

    /**
     * Starts configuring a consumer of the routes' service over this AMQP 1.0 connection, which the caller owns and
     * closes after the consumer.
     */
    @SuppressWarnings("exports") // the AMQP 1.0 client is optional: a module that calls this requires it itself
    public static Builder builder(Connection connection, Routes routes) {
        return new Builder(requireNonNull(connection, "connection"), requireNonNull(routes, "routes"));
    }

    /** The service it consumes for. */
    @Override
    public Service service() {
        return settings.service();
    }

    /** How many deliveries are being handled, or wait for their park to be accepted. */
    @Override
    public int inFlight() {
        return inFlight.count();
    }

    /** How many of its consumers are attached to the queue now. */
    @Override
    public int consumersRunning() {
        return stopped ? 0 : (int) links.stream().filter(Link::isOpen).count();
    }

    /** Whether it receives deliveries: not stopped, and every consumer attached. */
    @Override
    public boolean isRunning() {
        return !stopped && links.stream().allMatch(Link::isOpen);
    }

    /**
     * Stops consuming: its consumers are paused, deliveries not yet handled go back to the queue uncounted, those in
     * a handler finish and their parks are accepted within {@code timeout}; then the consumers and the parking lot's
     * publisher close, and the broker gives back, uncounted, whatever is still unsettled. A second call waits for
     * the first, and says what it said.
     *
     * @return whether every delivery in flight was settled in time
     */
    @Override
    public boolean stop(Duration timeout) throws InterruptedException {
        CompletableFuture<Boolean> mine = new CompletableFuture<>();
        CompletableFuture<Boolean> first = stopping.compareAndExchange(null, mine);
        if (first != null) {
            try {
                return first.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("stopping the consumers of " + service().queue() + " failed",
                        e.getCause());
            }
        }
        try {
            stopped = true;
            for (Link link : links) {
                link.pause();
            }
            if (parking != null) {
                parking.releaseBackingOff();
            }
            boolean idle = inFlight.awaitIdle(timeout);
            if (!idle) {
                log.warn("{} deliveries of {} were still in flight after {}; the broker gives them back",
                        inFlight.count(), service().queue(), timeout);
            }
            mine.complete(idle);
            return idle;
        } catch (InterruptedException | RuntimeException e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            shutDown();
        }
    }

    /** Stops within {@link RetryingConsumer#DEFAULT_STOP_TIMEOUT}; see {@link #stop(Duration)}. */
    @Override
    public void close() {
        try {
            stop(RetryingConsumer.DEFAULT_STOP_TIMEOUT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void shutDown() {
        stopped = true;
        links.forEach(Link::close);
        if (publisher != null) {
            try {
                publisher.close();
            } catch (RuntimeException e) {
                log.debug("Closing the parking lot's publisher of {} failed", service().name(), e);
            }
        }
        lane.stop();
    }

    // ---- On the client's dispatching threads ----

    /**
     * Handles one delivery of this consumer to its end, or hands its park over; never throws, or the client would
     * discard it. A delivery of a consumer that is lost is not handled: the client still hands over the deliveries it
     * took before its connection went, but the broker has them back already, each counted as a failed attempt, and
     * would drop whatever outcome it was given, so that handling it would only do its work twice.
     */
    private void handle(Link link, Consumer.Context client, Message message) {
        if (stopped || link.isLost()) {
            // Released, if its link lives after all (a state event not heard yet): back at once, uncounted.
            client.requeue();
            return;
        }
        inFlight.enter();
        Received received;
        try {
            received = arrived(link, client, message);
        } catch (RuntimeException e) {
            log.error("A delivery to {} could not be read; it is given back to the queue", service().queue(), e);
            client.requeue();
            inFlight.exit();
            return;
        }
        try {
            process(received);
        } catch (RuntimeException e) {
            log.error("{} could not be answered; it is given back to the queue", received.context, e);
            if (!received.isSettled()) {
                received.settle(Settle.RELEASE);
                inFlight.exit();
            }
        }
    }

    private Received arrived(Link link, Consumer.Context client, Message message) {
        Map<String, Object> delivered = Amqp10Messages.headers(message);
        String exchange = Amqp10Messages.exchange(message);
        RetryHeaders headers = RetryHeaders.arrival(delivered, exchange, Set.of());
        String firstFailure = Amqp10Messages.firstFailure(message);
        String routingKey = headers.originalRoutingKey().orElse(Amqp10Messages.routingKey(message));
        Routes.Dispatch dispatch = settings.routes().dispatch(routingKey);
        byte[] body = message.body() == null ? new byte[0] : message.body();
        DeliveryContext context = new DeliveryContext(settings.service(),
                headers.originalExchange().orElse(exchange),
                routingKey,
                dispatch == null ? null : dispatch.route().key().value(),
                settings.service().delayBackend().attempt(headers.attempts(), headers.deliveryCount()),
                () -> firstFailure == null ? headers.firstFailure() : parse(firstFailure),
                Amqp10Messages.properties(message, headers.delivered()), headers.delivered(),
                Optional.ofNullable(Amqp10Messages.expiration(message)).or(headers::originalExpiration).orElse(null),
                body);
        Arrival arrival = new Arrival(exchange, Amqp10Messages.routingKey(message),
                Amqp10Messages.expiration(message), Amqp10Messages.messageId(message));
        return new Received(link, client, message, headers, arrival, context, dispatch, firstFailure);
    }

    private static Optional<Instant> parse(String time) {
        try {
            return Optional.of(Instant.parse(time));
        } catch (DateTimeParseException unreadable) {
            return Optional.empty();
        }
    }

    private void process(Received received) {
        DeliveryContext delivered = received.context;
        DeliveryProcessor.Handled handled = DeliveryProcessor.handle(settings, received.dispatch, delivered);
        @Nullable Decision decision = handled.decision();
        @Nullable Throwable failure = handled.failure();
        if (decision == null) {
            log.info("{} was interrupted; it is given back to the queue", delivered);
            received.settle(Settle.RELEASE);
            inFlight.exit();
        } else if (decision instanceof Decision.Acknowledge) {
            if (received.settle(Settle.ACCEPT)) {
                settings.listeners().tell(listener -> listener.onSuccess(delivered));
            }
            inFlight.exit();
        } else if (decision instanceof Decision.Requeue requeue) {
            Throwable failed = requireNonNull(failure, "a retry follows a failure");
            if (received.retryAfter(requeue.delay())) {
                log.debug("{} failed ({}); the broker holds it for {}", delivered, failed, requeue.delay());
                settings.listeners().tell(listener -> listener.onRequeued(delivered, failed, requeue));
            }
            inFlight.exit();
        } else if (decision instanceof Decision.Park park) {
            Map<String, Object> headers = new HashMap<>(failure == null
                    ? HeaderWriter.parked(received.headers, received.arrival, park, settings.now())
                    : HeaderWriter.afterFailure(received.headers, received.arrival, delivered.attempt(), failure,
                            park, settings.now(), Integer.MAX_VALUE));
            if (received.firstFailure != null) {
                headers.put(RetryHeaders.FIRST_FAILURE, received.firstFailure);
            }
            Amqp10Parking lot = requireNonNull(parking, "parking");
            lot.park(lot.new Park(received, park, failure, Amqp10Messages.parked(requireNonNull(publisher),
                    received.message, delivered.rawBody(), headers)));
        } else {
            throw new IllegalStateException(settings.service().name() + " has no tier queues, yet its policy decided "
                    + decision);
        }
    }

    /** How a delivery is settled without a failure to count. */
    enum Settle {
        /** The {@code accepted} outcome: done with. */
        ACCEPT,
        /** The {@code released} outcome: back to the queue, not counted as a failure. */
        RELEASE
    }

    /** One delivery: the client's handle on it, what it carried, and what the handler sees; settled once. */
    final class Received {
        private final Link link;
        /** The attachment of its link that took it: one lost since cannot settle it. */
        private final int attachment;
        final Consumer.Context client;
        final Message message;
        final RetryHeaders headers;
        final Arrival arrival;
        final DeliveryContext context;
        final Routes.@Nullable Dispatch dispatch;
        /** When it first failed, as its annotation says; null before its first failure. */
        final @Nullable String firstFailure;
        private final AtomicBoolean settled = new AtomicBoolean();

        Received(Link link, Consumer.Context client, Message message, RetryHeaders headers, Arrival arrival,
                DeliveryContext context, Routes.@Nullable Dispatch dispatch, @Nullable String firstFailure) {
            this.link = link;
            this.attachment = link.attachment();
            this.client = client;
            this.message = message;
            this.headers = headers;
            this.arrival = arrival;
            this.context = context;
            this.dispatch = dispatch;
            this.firstFailure = firstFailure;
        }

        /** Whether it was settled, or given up on, already. */
        boolean isSettled() {
            return settled.get();
        }

        /** Settles it; false if it was settled already, or its link is gone and the broker has it back. */
        boolean settle(Settle how) {
            return settleWith(() -> {
                if (how == Settle.ACCEPT) {
                    client.accept();
                } else {
                    client.requeue();
                }
            });
        }

        /**
         * Settles it {@code modified}, failed, with its delivery time: the broker counts the failure and holds it
         * until then. The first failure's time goes with it, as an annotation the message keeps.
         */
        boolean retryAfter(Duration delay) {
            Map<String, Object> annotations = new HashMap<>(4);
            annotations.put(Amqp10Messages.DELIVERY_TIME, new Date(settings.clock().millis() + delay.toMillis()));
            if (firstFailure == null) {
                annotations.putAll(Amqp10Messages.firstFailure(headers.firstFailure().orElse(settings.now())));
            }
            return settleWith(() -> client.requeue(annotations, true));
        }

        /**
         * Settles it once; false if it was settled already, or if the link that took it was lost since: the client
         * would drop the outcome without a word, and the broker has the message back already, counted.
         */
        private boolean settleWith(Runnable settlement) {
            if (!settled.compareAndSet(false, true)) {
                return false;
            }
            if (link.isLost() || link.attachment() != attachment) {
                log.info("{} was not settled: the consumer that took it was lost, and the broker has it back",
                        context);
                return false;
            }
            try {
                settlement.run();
                return true;
            } catch (AmqpException e) {
                log.info("{} could not be settled ({}); the broker gives it back", context,
                        RetryingConsumer.describe(e));
                return false;
            }
        }
    }

    /** One of its consumers, and whether it is attached, as the client's state events say. */
    private static final class Link {
        private final AtomicReference<Resource.State> state = new AtomicReference<>(Resource.State.OPENING);
        /** How many times it was lost: the client attaches it again after each, and earlier deliveries stay lost. */
        private final AtomicInteger losses = new AtomicInteger();
        private volatile @Nullable Consumer consumer;

        /** Which attachment this is: one more after each loss. */
        int attachment() {
            return losses.get();
        }

        boolean isOpen() {
            return state.get() == Resource.State.OPEN;
        }

        /** Whether it is gone, for now or for good: its connection recovering, or itself closing or closed. */
        boolean isLost() {
            Resource.State now = state.get();
            return now == Resource.State.RECOVERING || now == Resource.State.CLOSING
                    || now == Resource.State.CLOSED;
        }

        void pause() {
            Consumer open = consumer;
            if (open != null) {
                try {
                    open.pause();
                } catch (RuntimeException e) {
                    log.debug("Pausing a consumer failed", e);
                }
            }
        }

        void close() {
            Consumer open = consumer;
            if (open != null) {
                try {
                    open.close();
                } catch (RuntimeException e) {
                    log.debug("Closing a consumer failed", e);
                }
            }
        }
    }

    /** Configures an {@link Amqp10RetryingConsumer}; every setting has a default. */
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

        /** How many unsettled deliveries each consumer may hold (its link credit); 20 by default. */
        public Builder prefetch(int prefetch) {
            if (prefetch < 1 || prefetch > RetryingConsumer.MAX_PREFETCH) {
                throw new IllegalArgumentException("prefetch is between 1 and " + RetryingConsumer.MAX_PREFETCH
                        + ", got " + prefetch);
            }
            this.prefetch = prefetch;
            return this;
        }

        /**
         * How many consumers handle deliveries in parallel, each a link of its own; 1 by default. A consumer's
         * deliveries are handled one at a time, in order, on the client's dispatching threads, which the
         * connection's builder sets ({@code ConnectionBuilder.dispatchingExecutor}).
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

        /** Adds a listener of successes, retries and parks; none by default. */
        public Builder listener(RetryListener listener) {
            listeners.add(requireNonNull(listener, "listener"));
            return this;
        }

        /** Adds an observer of each delivery's handling, such as a tracer's; none by default. */
        public Builder observer(DeliveryObserver observer) {
            observers.add(requireNonNull(observer, "observer"));
            return this;
        }

        /**
         * How long a parked copy may wait for the broker to accept it before it is sent once more beside the first;
         * 30 seconds by default. The delivery stays unsettled meanwhile.
         */
        public Builder confirmTimeout(Duration confirmTimeout) {
            if (confirmTimeout.isNegative() || confirmTimeout.isZero()) {
                throw new IllegalArgumentException("the confirm timeout must be positive, got " + confirmTimeout);
            }
            this.confirmTimeout = confirmTimeout;
            return this;
        }

        /** The clock of delivery times and of the failure and park times in headers; the system clock by default. */
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
         * Attaches the consumers and the parking lot's publisher.
         *
         * @throws IllegalStateException if the service is not consumed over AMQP 1.0, the codec cannot decode a
         *     payload type of the routes, the broker is older than RabbitMQ 4.3.1, or the service's queue is not a
         *     quorum queue
         * @throws AmqpException if the broker refuses a consumer or the publisher, for example because a queue
         *     does not exist
         */
        public Amqp10RetryingConsumer start() {
            Service service = routes.service();
            if (service.protocol() != Protocol.AMQP_1_0) {
                throw new IllegalStateException("service '" + service.name() + "' is consumed over "
                        + service.protocol().id() + ", not amqp-1.0: start a RetryingConsumer for it, or set "
                        + "'protocol: amqp-1.0' in its spec");
            }
            routes.requireDecodable(codec);
            requireBroker(service);
            ClassCheck.nonRetryableProblems(service).forEach(log::warn);
            ConsumerSettings settings = ConsumerSettings.of(routes, codec, new Listeners(listeners, observers), clock,
                    ticker, confirmTimeout, prefetch, consumers);
            Amqp10RetryingConsumer consumer = new Amqp10RetryingConsumer(settings, connection);
            try {
                consumer.publisher = connection.publisherBuilder().queue(service.parkingLot()).build();
                consumer.parking = new Amqp10Parking(settings, consumer.publisher, consumer.lane, consumer.inFlight);
                for (int i = 0; i < consumers; i++) {
                    Link link = new Link();
                    consumer.links.add(link);
                    link.consumer = connection.consumerBuilder()
                            .queue(service.queue())
                            .initialCredits(prefetch)
                            .listeners(context -> changed(settings, link, context))
                            .messageHandler((context, message) -> consumer.handle(link, context, message))
                            .build();
                    link.state.compareAndSet(Resource.State.OPENING, Resource.State.OPEN);
                }
            } catch (RuntimeException e) {
                consumer.shutDown();
                throw e;
            }
            log.info("Consuming {} over AMQP 1.0 with {} consumer(s), prefetch {}", service.queue(), consumers,
                    prefetch);
            return consumer;
        }

        private static void changed(ConsumerSettings settings, Link link, Resource.Context context) {
            if (context.currentState() == Resource.State.RECOVERING) {
                link.losses.incrementAndGet(); // first: no settlement may see it open again with the old count
            }
            Resource.State previous = link.state.getAndSet(context.currentState());
            Service service = settings.service();
            if (context.currentState() == Resource.State.RECOVERING && previous != Resource.State.RECOVERING) {
                String reason = context.failureCause() == null ? "its connection was lost"
                        : RetryingConsumer.describe(context.failureCause());
                log.warn("A consumer of {} is lost: {}", service.queue(), reason);
                settings.listeners().tell(listener -> listener.onConsumerLost(service, reason));
            } else if (context.currentState() == Resource.State.OPEN && previous == Resource.State.RECOVERING) {
                log.info("A consumer of {} is attached again", service.queue());
                settings.listeners().tell(listener -> listener.onConsumerRestored(service));
            }
        }

        /**
         * Refuses a broker that cannot hold a retry until its delivery time, and a queue that is not a quorum queue:
         * either would hand every retry back at once, until the delivery limit, or nothing, parked it.
         */
        private void requireBroker(Service service) {
            String reported = connection.connectionInfo().brokerVersion();
            BrokerVersion required = BrokerVersion.DELAYED_RETRY;
            try {
                BrokerVersion version = BrokerVersion.parse(String.valueOf(reported));
                if (!version.atLeast(required)) {
                    throw new IllegalStateException("service '" + service.name() + "' is consumed over AMQP 1.0 with "
                            + "a delivery time per retry, which needs RabbitMQ " + required + " or later; the broker "
                            + "at " + connection.connectionInfo().host() + ":" + connection.connectionInfo().port()
                            + " is RabbitMQ " + version);
                }
            } catch (IllegalArgumentException unreadable) {
                log.warn("{}: the broker reports its version as '{}'; it is taken to hold retries until their "
                        + "delivery time, as protocol amqp-1.0 needs", service.name(), reported);
            }
            // The connection's management is shared and stays open with it.
            Management.QueueInfo queue = connection.management().queueInfo(service.queue());
            if (queue.type() != Management.QueueType.QUORUM) {
                throw new IllegalStateException("service '" + service.name() + "' is consumed over AMQP 1.0, whose "
                        + "retries only quorum queues hold until their delivery time, but its queue " + service.queue()
                        + " is a " + queue.type().name().toLowerCase(java.util.Locale.ROOT) + " queue");
            }
        }
    }
}
