package io.github.retrytopology.runtime.consumer;

import com.rabbitmq.client.amqp.Message;
import com.rabbitmq.client.amqp.Publisher;
import io.github.retrytopology.model.decision.Decision;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Parks the deliveries of an {@link Amqp10RetryingConsumer}: publishes each to the parking lot and accepts the
 * original only once the broker has accepted the parked copy. A copy the broker refuses or releases, or whose publish
 * fails, is sent again after a back-off, and one the broker has not settled within the confirm timeout is sent again
 * beside the first; the original stays unsettled meanwhile, so the broker neither loses it nor counts a failure
 * against it. Sends start on the handler's thread; the client's publisher threads hand outcomes here, and what
 * waits out a back-off or a deadline runs on the settlement lane.
 */
final class Amqp10Parking {

    private static final Logger log = LoggerFactory.getLogger(Amqp10RetryingConsumer.class);

    private final ConsumerSettings settings;
    private final Publisher publisher;
    private final SettlementLane lane;
    private final InFlight inFlight;
    /** The parks not settled yet, for a stop to give back those that wait out a back-off. */
    private final Set<Park> open = ConcurrentHashMap.newKeySet();

    Amqp10Parking(ConsumerSettings settings, Publisher publisher, SettlementLane lane, InFlight inFlight) {
        this.settings = settings;
        this.publisher = publisher;
        this.lane = lane;
        this.inFlight = inFlight;
    }

    /** One delivery on its way to the parking lot, settled once: by the first send the broker accepts. */
    final class Park {
        final Amqp10RetryingConsumer.Received received;
        final Decision.Park decision;
        final @Nullable Throwable failure;
        final Message message;
        final long startedAt;
        private int refusals;
        private int outstanding;
        private boolean settled;
        private boolean backingOff;

        Park(Amqp10RetryingConsumer.Received received, Decision.Park decision, @Nullable Throwable failure,
                Message message) {
            this.received = received;
            this.decision = decision;
            this.failure = failure;
            this.message = message;
            this.startedAt = settings.ticker().nanos();
        }

        private synchronized boolean sending() {
            if (settled) {
                return false;
            }
            outstanding++;
            backingOff = false;
            return true;
        }

        /** True the first time the broker accepts a send: the original is then accepted. */
        private synchronized boolean accepted() {
            outstanding--;
            if (settled) {
                return false;
            }
            settled = true;
            return true;
        }

        /** True if this failed send was the last outstanding: the park then backs off and sends again. */
        private synchronized boolean failed() {
            outstanding--;
            if (settled || outstanding > 0) {
                return false;
            }
            refusals++;
            backingOff = true;
            return true;
        }

        /** Settles the park without a send: true if it was not settled yet. */
        private synchronized boolean abandon(boolean onlyIfBackingOff) {
            if (settled || (onlyIfBackingOff && !backingOff)) {
                return false;
            }
            settled = true;
            return true;
        }
    }

    /** Starts parking a delivery; on any thread. */
    void park(Park park) {
        open.add(park);
        send(park);
    }

    private void send(Park park) {
        if (!park.sending()) {
            return;
        }
        try {
            publisher.publish(park.message, outcome -> {
                if (outcome.status() == Publisher.Status.ACCEPTED) {
                    accepted(park);
                } else {
                    Throwable cause = outcome.failureCause();
                    failed(park, "the broker " + outcome.status().name().toLowerCase(java.util.Locale.ROOT)
                            + " it" + (cause == null ? "" : ": " + RetryingConsumer.describe(cause)));
                }
            });
        } catch (RuntimeException e) {
            failed(park, "the publish failed: " + RetryingConsumer.describe(e));
            return;
        }
        lane.schedule(() -> overdue(park), settings.confirmTimeout().toNanos());
    }

    /** The broker has the parked copy: the original is accepted, once. */
    private void accepted(Park park) {
        if (!park.accepted()) {
            return;
        }
        open.remove(park);
        DeliveryContext delivered = park.received.context;
        // An original whose link was lost meanwhile is back in its queue already: it is parked again from there.
        if (park.received.settle(Amqp10RetryingConsumer.Settle.ACCEPT)) {
            Duration latency = Duration.ofNanos(settings.ticker().nanos() - park.startedAt);
            settings.listeners().tell(listener -> listener.onRepublished(delivered, settings.service().parkingLot(),
                    latency));
            log.warn("{} parked in {}: {} [{}]", delivered, settings.service().parkingLot(), park.decision.detail(),
                    park.decision.reason().id());
            settings.listeners().tell(listener -> listener.onPark(delivered, park.failure, park.decision));
        }
        inFlight.exit();
    }

    private void failed(Park park, String reason) {
        if (!park.failed()) {
            return;
        }
        log.warn("Parking {} in {} failed ({}); sending it again", park.received.context,
                settings.service().parkingLot(), reason);
        settings.listeners().tell(listener -> listener.onRepublishFailed(park.received.context, reason));
        lane.schedule(() -> send(park), RetryingConsumer.backOff(park.refusals));
    }

    /** A send the broker has not settled in time is sent again beside it; the first accepted settles the park. */
    private void overdue(Park park) {
        lane.checkOwned();
        synchronized (park) {
            if (park.settled || park.backingOff || park.outstanding == 0) {
                return;
            }
        }
        log.warn("The broker did not settle the parked copy of {} within {}; sending it again",
                park.received.context, settings.confirmTimeout());
        send(park);
    }

    /** Gives back to the queue, uncounted, the deliveries whose park waits out a back-off: for a stop. */
    void releaseBackingOff() {
        for (Park park : open) {
            if (park.abandon(true)) {
                open.remove(park);
                park.received.settle(Amqp10RetryingConsumer.Settle.RELEASE);
                inFlight.exit();
            }
        }
    }
}
