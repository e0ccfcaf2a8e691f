package io.github.retrytopology.runtime.consumer;

import io.github.retrytopology.model.Tier;
import io.github.retrytopology.model.decision.Decision;
import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.amqp091.Republishing;
import io.github.retrytopology.runtime.headers.RetryHeaders;
import io.github.retrytopology.runtime.internal.HeaderWriter;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the failed deliveries of one channel life to their tier or to the parking lot, and settles each once the
 * broker has confirmed it: the delivery is then acknowledged, together with others where it can be. A send the
 * broker refuses or returns is sent again after a back-off, and one it does not confirm in time is sent again
 * beside the first, while the delivery waits unacknowledged: the broker neither loses it nor counts a delivery
 * against it.
 *
 * <p>Its first send comes from the handler's thread; confirms, refusals and returns from the client's connection
 * thread, which only hands them over; everything that follows runs on the settlement lane, which sends again
 * only while the broker does not block the connection: a send on a blocked connection waits until it is freed.
 */
final class Republisher {

    private static final Logger log = LoggerFactory.getLogger(RetryingConsumer.class);

    private final ChannelLife life;
    private final ConsumerContext context;
    private final PendingPublishes pending = new PendingPublishes();
    private final Set<Republish> backingOff = ConcurrentHashMap.newKeySet();

    Republisher(ChannelLife life, ConsumerContext context) {
        this.life = life;
        this.context = context;
    }

    /** Sends a republish for the first time: on the handler's thread, which the broker's blocking may hold back. */
    void send(Republish republish) {
        publish(republish);
    }

    /**
     * Sends a republish again, after a back-off: on the settlement lane, which must not wait, so not while the
     * broker blocks the connection; it looks again after another back-off then.
     */
    private void sendAgain(Republish republish) {
        context.settlement.checkOwned();
        if (context.isBlocked() && !life.isEnded()) {
            context.settlement.schedule(() -> sendAgain(republish), RetryingConsumer.backOff(republish.refusals()));
            return;
        }
        publish(republish);
    }

    private void publish(Republish republish) {
        backingOff.remove(republish);
        if (life.isEnded()) {
            abandon(republish);
            return;
        }
        if (!republish.outgoing.fits(life.maxHeaderBytes)) {
            context.settlement.execute(() -> unpublishable(republish, "its headers take more than the " + life.maxHeaderBytes
                    + " bytes a frame leaves them"));
            return;
        }
        if (!republish.sending()) {
            return;
        }
        // One send at a time on the channel, so that the sequence number registered is the one sent.
        synchronized (this) {
            long sequence = life.channel.getNextPublishSeqNo();
            PendingPublishes.Send send = new PendingPublishes.Send(republish, sequence,
                    context.settings.ticker().nanos() + context.settings.confirmTimeout().toNanos());
            pending.add(send);
            context.confirmDeadlines.arm();
            try {
                life.channel.basicPublish(Topology.DEFAULT_EXCHANGE, republish.queue, true,
                        republish.outgoing.stamped(sequence), republish.delivery.body);
            } catch (IllegalArgumentException tooLarge) {
                // The client refuses what no frame can carry, and would refuse it every time.
                if (pending.remove(sequence) != null && send.republish.failed()) {
                    context.settlement.execute(() -> unpublishable(send.republish, tooLarge.getMessage()));
                }
            } catch (IOException | RuntimeException e) {
                if (pending.remove(sequence) != null) {
                    String reason = "it could not be sent: " + RetryingConsumer.describe(e);
                    context.settlement.execute(() -> refused(send, reason));
                }
            }
        }
    }

    // ---- From the client's connection thread: handed over at once ----

    void acked(long sequence, boolean multiple) {
        List<PendingPublishes.Send> sends = pending.take(sequence, multiple);
        if (!sends.isEmpty()) {
            context.settlement.batch(() -> confirmed(sends));
        }
    }

    void nacked(long sequence, boolean multiple) {
        List<PendingPublishes.Send> sends = pending.take(sequence, multiple);
        if (!sends.isEmpty()) {
            context.settlement.batch(() -> sends.forEach(send -> refused(send, "the broker refused it (nack)")));
        }
    }

    void returned(long sequence, String reason) {
        pending.returned(sequence, reason);
    }

    // ---- On the settlement lane ----

    /**
     * Sends the broker confirmed: their deliveries are acknowledged, together where they can be, unless the broker
     * returned the send.
     */
    private void confirmed(List<PendingPublishes.Send> sends) {
        context.settlement.checkOwned();
        List<Republish> settled = new ArrayList<>(sends.size());
        for (PendingPublishes.Send send : sends) {
            String returned = send.returned();
            if (returned != null) {
                refused(send, "the broker returned it: " + returned);
                continue;
            }
            Republish republish = send.republish;
            if (!republish.confirmed()) {
                continue;
            }
            if (republish.refusals() > 0) {
                context.refusals.accepted(republish.queue);
            }
            DeliveryContext delivered = republish.delivery.context;
            Duration latency = Duration.ofNanos(context.settings.ticker().nanos() - republish.startedAt);
            context.settings.listeners().tell(listener -> listener.onRepublished(delivered, republish.queue, latency));
            settled.add(republish);
        }
        if (settled.isEmpty()) {
            return;
        }
        // A delivery whose channel closed after the confirm is not acknowledged: it comes back, beside its republish.
        boolean[] acknowledged = Delivery.ackAll(life, settled.stream().map(republish -> republish.delivery).toList());
        for (int i = 0; i < acknowledged.length; i++) {
            if (acknowledged[i]) {
                retriedOrParked(settled.get(i));
            }
        }
    }

    private void retriedOrParked(Republish republish) {
        DeliveryContext delivered = republish.delivery.context;
        if (republish.decision instanceof Decision.Retry retry) {
            Tier tier = context.settings.tier(retry.tier());
            log.debug("{} failed ({}); retrying in {} through {}", delivered, republish.failure, tier.delay(),
                    tier.queue());
            context.settings.listeners().tell(listener -> listener.onRetry(delivered, republish.failure, tier));
        } else {
            Decision.Park park = (Decision.Park) republish.decision;
            log.warn("{} parked in {}: {} [{}]", delivered, republish.queue, park.detail(), park.reason().id());
            context.settings.listeners().tell(listener -> listener.onPark(delivered, republish.failure, park));
        }
    }

    /** A send that failed: if none of the republish's sends is left, it is sent again after a back-off. */
    private void refused(PendingPublishes.Send send, String reason) {
        context.settlement.checkOwned();
        Republish republish = send.republish;
        if (!republish.failed()) {
            return;
        }
        if (!republish.delivery.live()) {
            abandon(republish);
            return;
        }
        context.refusals.refused(republish.queue, reason);
        context.settings.listeners().tell(listener -> listener.onRepublishFailed(republish.delivery.context, reason));
        backingOff.add(republish);
        context.settlement.schedule(() -> sendAgain(republish), RetryingConsumer.backOff(republish.refusals()));
    }

    /**
     * A republish no frame can carry, because the publisher's own headers leave no room for the failure's: the
     * client would refuse it every time, or the broker would hand it back, with a dead-letter's headers added, in a
     * frame no client reads. The message is parked instead, its body and properties whole, with as many of its
     * publisher's headers as leave room for the park's, the others named; if even that does not fit, the broker
     * dead-letters the delivery, as it arrived, to the parking lot.
     */
    private void unpublishable(Republish republish, String why) {
        context.settlement.checkOwned();
        if (!republish.abandon()) {
            return;
        }
        Delivery delivery = republish.delivery;
        DeliveryContext delivered = delivery.context;
        if (republish.decision instanceof Decision.Park park && park.reason() == ParkReason.UNPUBLISHABLE) {
            if (delivery.deadLetter()) {
                log.error("{} cannot be parked with any headers ({}); the broker dead-letters it as it arrived",
                        delivered, why);
            }
            return;
        }
        Decision.Park park = context.settings.policy().unpublishable(why, RetryHeaders.DROPPED_HEADERS);
        log.error("{} cannot be sent to {}: {}", delivered, republish.queue, park.detail());
        publish(new Republish(delivery, park, republish.failure, context.settings.service().parkingLot(),
                Republishing.outgoing(delivery.properties, HeaderWriter.parkedWithoutRoom(delivery.headers,
                        delivery.arrival(), park, context.settings.now(), life.maxHeaderBytes)),
                context.settings.ticker().nanos()));
    }

    /**
     * Sends again, beside the first, each send the broker has not confirmed in time. Returns whether any send
     * still waits for its confirm.
     */
    boolean expireOverdue(long now) {
        context.settlement.checkOwned();
        for (PendingPublishes.Send send : pending.overdue(now)) {
            send.deadline = now + context.settings.confirmTimeout().toNanos();
            boolean blocked = context.isBlocked();
            String reason = "the broker did not confirm it within " + context.settings.confirmTimeout()
                    + (blocked ? " (it blocks publishers, on a resource alarm; waiting for it)" : "");
            context.refusals.refused(send.republish.queue, reason);
            context.settings.listeners().tell(listener -> listener.onRepublishFailed(send.republish.delivery.context,
                    reason));
            if (!blocked) {
                publish(send.republish); // a second send would only wait too while the broker blocks us
            }
        }
        return pending.size() > 0;
    }

    /** The life ended: the broker requeues the deliveries, and nothing more is done with their republishes. */
    void abandonAll() {
        context.settlement.checkOwned();
        pending.clear().forEach(send -> abandon(send.republish));
    }

    /** Requeues the deliveries whose republish waits out a back-off: the consumers stop. */
    void requeueWaiting() {
        context.settlement.checkOwned();
        for (Republish republish : List.copyOf(backingOff)) {
            backingOff.remove(republish);
            if (republish.abandon()) {
                republish.delivery.requeue();
            }
        }
    }

    private static void abandon(Republish republish) {
        if (republish.abandon()) {
            republish.delivery.abandon();
        }
    }
}
