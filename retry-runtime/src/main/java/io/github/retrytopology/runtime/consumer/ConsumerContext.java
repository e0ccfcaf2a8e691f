package io.github.retrytopology.runtime.consumer;

import com.rabbitmq.client.Connection;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What the consumers of one service share while they run: their settings, their connection, their two lanes, and
 * the few facts each of them reads. Who writes each is said beside it.
 */
final class ConsumerContext {

    private static final Duration REPORT_PERIOD = Duration.ofSeconds(10);

    final ConsumerSettings settings;
    final Connection connection;
    final ControlLane control;
    final SettlementLane settlement;
    /** When to look for republishes the broker has not confirmed in time. */
    final ConfirmDeadlines confirmDeadlines;
    final Admission admission;
    final InFlight inFlight;
    /** The settlement lane's alone. */
    final Refusals refusals;
    /** Written by the client's connection thread, as the broker blocks and unblocks the connection. */
    private volatile boolean blocked;
    /** Written by the client's recovery thread, while it recovers the connection. */
    private volatile boolean recovering;
    /** Written by the thread that stops the consumers, once. */
    private volatile boolean stopped;
    /** Opened once no consumer is subscribed any more, by the thread that stops them. */
    private final CountDownLatch unsubscribed = new CountDownLatch(1);

    ConsumerContext(ConsumerSettings settings, Connection connection) {
        this.settings = settings;
        this.connection = connection;
        this.control = new ControlLane(settings.service().name());
        this.settlement = new SettlementLane(settings.service().name());
        long confirmPeriod = Math.max(5, Math.min(100, settings.confirmTimeout().toMillis() / 4));
        this.confirmDeadlines = new ConfirmDeadlines(settlement, TimeUnit.MILLISECONDS.toNanos(confirmPeriod));
        this.admission = new Admission(Math.min(settings.prefetch() * settings.consumers(), RetryingConsumer.CAUTIOUS_RUN));
        this.inFlight = new InFlight(settings.ticker());
        this.refusals = new Refusals(settings.service().name(), settings.ticker(), REPORT_PERIOD);
    }

    boolean isBlocked() {
        return blocked;
    }

    void blocked(boolean isBlocked) {
        blocked = isBlocked;
    }

    /** Whether the client is recovering the connection, when no consumer may subscribe. */
    boolean isRecovering() {
        return recovering;
    }

    void recovering(boolean isRecovering) {
        recovering = isRecovering;
    }

    boolean isStopped() {
        return stopped;
    }

    void stopping() {
        stopped = true;
    }

    /** Every subscription is cancelled, or the consumers' channels are closing: nothing more will be delivered. */
    void unsubscribed() {
        unsubscribed.countDown();
    }

    /**
     * Waits until no consumer is subscribed any more. A delivery that arrives while the consumers stop goes back to
     * the queue only then: given back sooner, it would go to a consumer still subscribed, which gives it back again,
     * and RabbitMQ before 4.3 counts each return toward a quorum queue's delivery limit.
     */
    void awaitUnsubscribed() throws InterruptedException {
        unsubscribed.await();
    }
}
