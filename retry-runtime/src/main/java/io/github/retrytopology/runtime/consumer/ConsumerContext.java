package io.github.retrytopology.runtime.consumer;

import com.rabbitmq.client.Connection;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * What the consumers of one service share while they run: their settings, their connection, their two lanes, and
 * the few facts each of them reads. Who writes each is said beside it.
 */
final class ConsumerContext {

    private static final Duration REPORT_PERIOD = Duration.ofSeconds(10);

    final ConsumerSettings settings;
    final Connection connection;
    /**
     * The subscriptions' lane: it subscribes, cancels, opens channels and asks the broker how its queue is, and so
     * may wait on the broker. Only it writes a consumer's subscription.
     */
    final Lane control;
    /**
     * The settlements' lane: it acknowledges deliveries once their republish is confirmed, sends again what the
     * broker refused, and tells listeners; it never waits on a broker round trip.
     */
    final Lane acks;
    final Admission admission;
    final InFlight inFlight;
    /** The acks lane's alone. */
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
        String name = "retry-" + settings.service().name();
        this.control = new Lane(name + "-control");
        this.acks = new Lane(name + "-acks");
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
