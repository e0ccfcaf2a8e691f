package io.github.retrytopology.runtime.consumer;

import static java.util.Objects.requireNonNull;

import com.rabbitmq.client.BlockedListener;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.Recoverable;
import com.rabbitmq.client.RecoveryListener;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.classes.ClassCheck;
import io.github.retrytopology.runtime.codec.PayloadCodec;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
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
public final class RetryingConsumer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RetryingConsumer.class);

    /** How long {@link #close()} waits for deliveries in flight. */
    public static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(30);

    private static final long FIRST_BACK_OFF = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long LAST_BACK_OFF = TimeUnit.SECONDS.toNanos(5);
    private static final Duration REPORT_PERIOD = Duration.ofSeconds(10);
    /**
     * How many deliveries in a row the broker must hand out for the first time before cautious consumers take
     * their full prefetch. A quorum queue hands out the deliveries that came back before any other, so the
     * first one that did not come back says they are past; a few more make sure.
     */
    static final int CAUTIOUS_RUN = 10;
    /** How long a consumer that could take deliveries may receive none before the queue is asked why. */
    private static final long IDLE_CHECK_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final Connection connection;
    private final Routes routes;
    private final Service service;
    private final PayloadCodec codec;
    private final List<RetryListener> listeners;
    private final DeliveryObserver observer;
    private final Clock clock;
    private final Ticker ticker;
    private final Duration confirmTimeout;
    private final int prefetch;
    private final InFlight inFlight = new InFlight();
    private final Admission admission;
    private final Decisions decisions;
    private final Refusals refusals;
    private final ScheduledExecutorService control;
    private final List<ChannelConsumer> consumers = new ArrayList<>();
    private final BlockedListener blocked;
    private final RecoveryListener recovery;
    private final Queue<Runnable> settlements = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean settling = new AtomicBoolean();
    private volatile boolean isBlocked;
    private volatile boolean recovering;
    private volatile boolean stopped;
    private long nextIdleCheck;

    private RetryingConsumer(Builder builder) {
        this.connection = builder.connection;
        this.routes = builder.routes;
        this.service = routes.service();
        this.codec = builder.codec;
        this.listeners = List.copyOf(builder.listeners);
        this.observer = DeliveryObserver.all(builder.observers);
        this.clock = builder.clock;
        this.ticker = builder.ticker;
        this.confirmTimeout = builder.confirmTimeout;
        this.prefetch = builder.prefetch;
        this.admission = new Admission(Math.min(builder.prefetch * builder.consumers, CAUTIOUS_RUN));
        this.decisions = new Decisions(service);
        this.refusals = new Refusals(service.name(), ticker, REPORT_PERIOD);
        this.nextIdleCheck = ticker.nanos() + IDLE_CHECK_NANOS;
        this.control = Executors.newSingleThreadScheduledExecutor(daemon("retry-" + service.name() + "-control"));
        this.blocked = new BlockedListener() {
            @Override
            public void handleBlocked(String reason) {
                isBlocked = true;
                log.warn("The broker blocks the connection of {}'s consumers: {}", service.queue(), reason);
            }

            @Override
            public void handleUnblocked() {
                isBlocked = false;
                log.info("The broker unblocked the connection of {}'s consumers", service.queue());
            }
        };
        // The client recovers a connection's channels first, then the queues, bindings and consumers it recorded. A
        // consumer that subscribes between the two is recorded in time to be recovered a second time under its tag,
        // and the broker closes the connection for that (530 NOT_ALLOWED): the consumers wait for the whole recovery.
        this.recovery = new RecoveryListener() {
            @Override
            public void handleRecoveryStarted(Recoverable recoverable) {
                recovering = true;
            }

            @Override
            public void handleRecovery(Recoverable recoverable) {
                recovering = false;
                execute(RetryingConsumer.this::review);
            }
        };
    }

    /** Starts configuring a consumer of the service that {@code routes} belong to. */
    public static Builder builder(Connection connection, Routes routes) {
        return new Builder(requireNonNull(connection, "connection"), requireNonNull(routes, "routes"));
    }

    /** The service whose queue this consumes. */
    public Service service() {
        return service;
    }

    /** How many deliveries are being handled, wait to be, or wait for their republish to be confirmed. */
    public int inFlight() {
        return inFlight.count();
    }

    /** How many of its consumers are subscribed to the queue now. */
    public int consumersRunning() {
        if (stopped) {
            return 0;
        }
        int running = 0;
        for (ChannelConsumer consumer : consumers) {
            if (consumer.isSubscribed()) {
                running++;
            }
        }
        return running;
    }

    /**
     * Whether it receives deliveries: not stopped, and every consumer that should be subscribed is. While it is
     * cautious (see the class comment), one consumer is subscribed by design.
     */
    public boolean isRunning() {
        if (stopped) {
            return false;
        }
        boolean open = admission.isOpen();
        for (int i = 0; i < consumers.size(); i++) {
            if ((open || i == 0) && !consumers.get(i).isSubscribed()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Stops consuming: deliveries not yet handled, and those whose republish waits out a back-off, go back to
     * the queue at once; those in a handler finish, and their republishes are confirmed, within {@code timeout}.
     * Then the channels close, and the broker requeues whatever is still unanswered.
     *
     * @return whether every delivery in flight was answered in time
     */
    public boolean stop(Duration timeout) throws InterruptedException {
        if (stopped) {
            return true;
        }
        stopped = true;
        try {
            control.submit(() -> {
                consumers.forEach(ChannelConsumer::cancel);
                consumers.forEach(ChannelConsumer::requeueWaiting);
            }).get();
        } catch (ExecutionException e) {
            log.warn("Stopping the consumers of {} failed", service.queue(), e.getCause());
        } catch (RejectedExecutionException shutDown) {
            log.debug("The control thread of {} had ended", service.queue());
        }
        boolean idle = inFlight.awaitIdle(timeout);
        if (!idle) {
            log.warn("{} deliveries of {} were still in flight after {}; the broker requeues them",
                    inFlight.count(), service.queue(), timeout);
            consumers.forEach(ChannelConsumer::interruptHandler);
        }
        shutDown();
        return idle;
    }

    /** Stops within {@link #DEFAULT_STOP_TIMEOUT}; see {@link #stop(Duration)}. */
    @Override
    public void close() {
        try {
            stop(DEFAULT_STOP_TIMEOUT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            shutDown();
        }
    }

    private void shutDown() {
        stopped = true;
        control.shutdownNow();
        connection.removeBlockedListener(blocked);
        if (connection instanceof Recoverable recoverable) {
            recoverable.removeRecoveryListener(recovery);
        }
        consumers.forEach(ChannelConsumer::close);
    }

    // ---- What the consumers share; package-private ----

    Connection connection() {
        return connection;
    }

    Routes routes() {
        return routes;
    }

    PayloadCodec codec() {
        return codec;
    }

    InFlight inFlightDeliveries() {
        return inFlight;
    }

    Admission admission() {
        return admission;
    }

    Refusals refusals() {
        return refusals;
    }

    Decisions decisions() {
        return decisions;
    }

    Ticker ticker() {
        return ticker;
    }

    Duration confirmTimeout() {
        return confirmTimeout;
    }

    long confirmTimeoutNanos() {
        return confirmTimeout.toNanos();
    }

    /** The wall clock's time to the millisecond, as headers keep it: cheaper to read than the clock's instant. */
    Instant now() {
        return Instant.ofEpochMilli(clock.millis());
    }

    boolean isStopped() {
        return stopped;
    }

    boolean isBlocked() {
        return isBlocked;
    }

    /** Whether the client is recovering the connection, when no consumer may subscribe. */
    boolean isRecovering() {
        return recovering;
    }

    /** Runs a task on the control thread; dropped once stopped, when the channels' end settles everything. */
    void execute(Runnable task) {
        try {
            control.execute(task);
        } catch (RejectedExecutionException shutDown) {
            log.debug("Dropped a task of {}'s consumers: they have stopped", service.queue());
        }
    }

    /**
     * Runs what follows a confirm on the control thread. Confirms come in bursts, one callback each: they queue
     * here, and one task drains them, so that a burst costs the control thread one wake-up, not one each.
     */
    void settle(Runnable settlement) {
        settlements.add(settlement);
        if (settling.compareAndSet(false, true)) {
            execute(this::drainSettlements);
        }
    }

    private void drainSettlements() {
        settling.set(false);
        for (Runnable settlement; (settlement = settlements.poll()) != null; ) {
            try {
                settlement.run();
            } catch (RuntimeException e) {
                log.error("Settling a republish of {} failed", service.queue(), e);
            }
        }
    }

    /** Runs a task on the control thread after a pause in nanoseconds. */
    void schedule(Runnable task, long nanos) {
        try {
            control.schedule(task, nanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException shutDown) {
            log.debug("Dropped a task of {}'s consumers: they have stopped", service.queue());
        }
    }

    /** Starts observing a delivery's handling; what the observer throws is logged, never passed on. */
    DeliveryObserver.Observation observe(DeliveryContext context) {
        try {
            return observer.handling(context);
        } catch (RuntimeException e) {
            log.warn("A delivery observer failed; ignored", e);
            return DeliveryObserver.NONE.handling(context);
        }
    }

    /** Tells an observation the outcome of its delivery; what it throws is logged, never passed on. */
    void finish(DeliveryObserver.Observation observation, DeliveryObserver.Outcome outcome, Throwable failure) {
        try {
            observation.finished(outcome, failure);
        } catch (RuntimeException e) {
            log.warn("A delivery observer failed; ignored", e);
        }
    }

    /** Tells each listener; what one throws is logged, never passed on, and the next still hears. */
    void notifyListener(Consumer<RetryListener> event) {
        for (RetryListener listener : listeners) {
            try {
                event.accept(listener);
            } catch (RuntimeException e) {
                log.warn("A retry listener failed; ignored", e);
            }
        }
    }

    int prefetch() {
        return prefetch;
    }

    /**
     * Brings the consumers in line with the admission: all of them at the configured prefetch when open, only
     * the first, with a prefetch of 1, when cautious. Runs on the control thread.
     */
    void review() {
        if (stopped) {
            return;
        }
        long now = ticker.nanos();
        boolean open = admission.isOpen();
        for (int i = 0; i < consumers.size(); i++) {
            consumers.get(i).steer(open || i == 0, open ? prefetch : 1, now);
        }
    }

    /** Looks after deadlines, back-offs and forgotten subscriptions; runs on the control thread, every tick. */
    private void tick() {
        try {
            long now = ticker.nanos();
            consumers.forEach(consumer -> consumer.expireOverdue(now));
            review();
            if (now - nextIdleCheck >= 0) {
                nextIdleCheck = now + IDLE_CHECK_NANOS;
                checkIdle(now);
            }
        } catch (RuntimeException e) {
            log.error("The control thread of {}'s consumers failed; it goes on", service.queue(), e);
        }
    }

    /**
     * Subscribes again the consumers that could take deliveries but have received none for a while, if the queue
     * holds ready messages meanwhile: the broker does not serve them, and did not say so.
     */
    private void checkIdle(long now) {
        List<ChannelConsumer> idle = consumers.stream()
                .filter(consumer -> consumer.idleSince(now, IDLE_CHECK_NANOS)).toList();
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
            idle.forEach(consumer -> consumer.resubscribe(reason));
        }
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

    private static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
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
         * @throws IllegalStateException if the codec cannot decode a payload type of the routes
         * @throws IOException if the broker refuses a channel or the consumer, for example because the queue
         *     does not exist
         */
        public RetryingConsumer start() throws IOException {
            routes.requireDecodable(codec);
            ClassCheck.nonRetryableProblems(routes.service()).forEach(log::warn);
            RetryingConsumer consumer = new RetryingConsumer(this);
            try {
                for (int i = 1; i <= consumers; i++) {
                    consumer.consumers.add(new ChannelConsumer(consumer, i));
                }
                consumer.consumers.get(0).subscribeOrThrow(1);
            } catch (IOException | RuntimeException e) {
                consumer.shutDown();
                throw e;
            }
            connection.addBlockedListener(consumer.blocked);
            if (connection instanceof Recoverable recoverable) {
                recoverable.addRecoveryListener(consumer.recovery);
            }
            long tick = Math.max(5, Math.min(100, confirmTimeout.toMillis() / 4));
            consumer.control.scheduleWithFixedDelay(consumer::tick, tick, tick, TimeUnit.MILLISECONDS);
            log.info("Consuming {} with {} consumer(s), prefetch {}", consumer.service.queue(), consumers, prefetch);
            return consumer;
        }
    }
}
