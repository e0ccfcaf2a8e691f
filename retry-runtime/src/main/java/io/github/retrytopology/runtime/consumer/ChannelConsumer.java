package io.github.retrytopology.runtime.consumer;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.AlreadyClosedException;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConfirmListener;
import com.rabbitmq.client.Consumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.Recoverable;
import com.rabbitmq.client.RecoveryListener;
import com.rabbitmq.client.ReturnListener;
import com.rabbitmq.client.ShutdownListener;
import com.rabbitmq.client.ShutdownSignalException;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.Tier;
import io.github.retrytopology.model.decision.Decision;
import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.codec.UndecodablePayloadException;
import io.github.retrytopology.runtime.headers.RetryHeaders;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One of a service's consumers: a channel, and the consumer subscribed on it. Its handlers run on the
 * connection's consumer threads, one delivery at a time, in order, as the Java client dispatches them; a handler
 * that waits holds up its own channel only, while the connection has consumer threads to spare. A failure is
 * republished to its tier or the parking lot, and the delivery is acknowledged once the broker confirms that
 * republish; a republish the broker refuses or returns is sent again after a back-off while the delivery waits,
 * unacknowledged.
 *
 * <p>The channel lives several lives: the client's automatic recovery brings it back after a lost connection,
 * and this consumer opens a new one after a channel error. Each delivery and each republish belongs to the life
 * it began in; when that life ends, the broker requeues the delivery, and nothing more is done with it.
 *
 * <p>The client's connection thread only hands work over: confirms, and everything that follows them
 * (acknowledgements, listeners, subscribing again), go to the service's control thread.
 */
final class ChannelConsumer {

    private static final Logger log = LoggerFactory.getLogger(RetryingConsumer.class);
    private static final int FRAME_MAX_WHEN_UNLIMITED = 131_072;

    private final RetryingConsumer owner;
    private final Service service;
    private final int number;
    private final Set<Republish> backingOff = ConcurrentHashMap.newKeySet();
    /** The thread running a handler of this consumer, if one is; a stop that times out interrupts it. */
    private volatile Thread handling;
    private volatile boolean interrupting;
    private final Set<String> tierQueues;
    private volatile Life life;
    // The subscription; guarded by this. The tags are ours, so that a subscription is known before it is made.
    private String consumerTag;
    private int prefetch;
    private int subscriptions;
    private boolean lost;
    private int failedSubscriptions;
    private long nextSubscription;
    /** When the last delivery arrived, or the consumer subscribed. */
    private volatile long lastActivity;

    /** One life of the channel: from its opening, or its recovery, until it closes. */
    final class Life {
        final Channel channel;
        final PendingPublishes pending = new PendingPublishes();
        /**
         * Its deliveries not answered yet, which the broker counts against the consumer's prefetch; settled
         * republishes are acknowledged together below them.
         */
        final Held held = new Held();
        final int maxHeaderBytes;
        private final Callbacks callbacks;
        /** Delivery tags at or below this belong to earlier lives of the same recovering channel. */
        private final long tagFloor;
        volatile boolean ended;

        private Life(Channel channel, Callbacks callbacks, long tagFloor) {
            this.channel = channel;
            this.callbacks = callbacks;
            this.tagFloor = tagFloor;
            int frameMax = channel.getConnection().getFrameMax();
            // Our headers, and the publisher's, must leave room in the frame for the other properties.
            this.maxHeaderBytes = (frameMax == 0 ? FRAME_MAX_WHEN_UNLIMITED : frameMax) - 1_024;
        }

        boolean isCurrent() {
            return !ended && life == this;
        }
    }

    ChannelConsumer(RetryingConsumer owner, int number) throws IOException {
        this.owner = owner;
        this.service = owner.service();
        this.number = number;
        this.tierQueues = Set.copyOf(service.tiers().stream().map(Tier::queue).toList());
        this.life = open();
        this.nextSubscription = owner.ticker().nanos();
        this.lastActivity = nextSubscription;
    }

    /** Opens a channel in confirm mode, with this consumer's listeners, as a new life. */
    private Life open() throws IOException {
        Channel channel = owner.connection().createChannel();
        if (channel == null) {
            throw new IOException("the connection has no channel left to open");
        }
        try {
            channel.confirmSelect();
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
        Callbacks callbacks = new Callbacks(channel);
        channel.addConfirmListener(callbacks);
        channel.addReturnListener(callbacks);
        channel.addShutdownListener(callbacks);
        if (channel instanceof Recoverable recoverable) {
            recoverable.addRecoveryListener(callbacks);
        }
        return new Life(channel, callbacks, 0);
    }

    // ---- Subscribing: on the control thread ----

    /**
     * Subscribes at this prefetch if {@code wanted} and not subscribed, or cancels the subscription if not
     * wanted; a failed subscription is tried again after a back-off. A subscription of another prefetch is left
     * to the handler thread, which cancels it only when nothing can be on its way (see {@link Admission}). Runs
     * on the control thread.
     */
    void steer(boolean wanted, int wantedPrefetch, long now) {
        String tag;
        synchronized (this) {
            tag = consumerTag;
        }
        if (tag != null && !wanted) {
            cancel();
        }
        if (wanted && tag == null && now - nextSubscription >= 0 && !owner.isRecovering()) {
            subscribe(wantedPrefetch, now);
        }
    }

    /** Subscribes now, on the caller's thread: for the first consumer, whose failure fails the start. */
    void subscribeOrThrow(int wantedPrefetch) throws IOException {
        String tag = nextTag(wantedPrefetch);
        try {
            consume(life, tag, wantedPrefetch);
            lastActivity = owner.ticker().nanos();
        } catch (IOException | RuntimeException e) {
            synchronized (this) {
                consumerTag = null;
            }
            throw e;
        }
    }

    private synchronized String nextTag(int wantedPrefetch) {
        consumerTag = "retry-" + service.name() + "-" + number + "-" + ++subscriptions;
        prefetch = wantedPrefetch;
        return consumerTag;
    }

    private void consume(Life current, String tag, int wantedPrefetch) throws IOException {
        current.channel.basicQos(wantedPrefetch);
        current.channel.basicConsume(service.queue(), false, tag, false, false, null, current.callbacks);
    }

    private void subscribe(int wantedPrefetch, long now) {
        String tag = nextTag(wantedPrefetch);
        try {
            Life current = life;
            if (current.ended) {
                if (!owner.connection().isOpen()) {
                    synchronized (this) {
                        consumerTag = null;
                    }
                    return; // lost with its connection: the client's recovery brings the channel back, if it can
                }
                current = open();
                life = current;
            }
            consume(current, tag, wantedPrefetch);
            lastActivity = owner.ticker().nanos();
            boolean restored;
            synchronized (this) {
                failedSubscriptions = 0;
                restored = lost;
                lost = false;
            }
            if (restored) {
                log.info("Consumer {} of {} is subscribed again", number, service.queue());
                owner.notifyListener(listener -> listener.onConsumerRestored(service));
            }
        } catch (IOException | RuntimeException e) {
            long pause;
            boolean report;
            synchronized (this) {
                if (tag.equals(consumerTag)) {
                    consumerTag = null;
                }
                failedSubscriptions++;
                pause = RetryingConsumer.backOff(failedSubscriptions);
                nextSubscription = now + pause;
                report = !lost;
                lost = true;
            }
            String reason = "could not subscribe to " + service.queue() + ": " + RetryingConsumer.describe(e);
            if (report) {
                log.warn("Consumer {} of {} {}; trying again", number, service.queue(), reason);
                owner.notifyListener(listener -> listener.onConsumerLost(service, reason));
            } else {
                log.debug("Consumer {} of {} {}; trying again in {} ms", number, service.queue(), reason,
                        pause / 1_000_000);
            }
        }
    }

    /**
     * Cancels the subscription, if any: no more deliveries come, those held stay held. A delivery on its way
     * when the broker cancels goes back to the queue, counted as a delivery: call it when there is none.
     */
    void cancel() {
        String tag;
        synchronized (this) {
            tag = consumerTag;
            consumerTag = null;
        }
        if (tag == null) {
            return;
        }
        try {
            life.channel.basicCancel(tag);
        } catch (IOException | AlreadyClosedException e) {
            log.debug("Could not cancel consumer {} of {}", number, service.queue(), e);
        }
    }

    synchronized boolean isSubscribed() {
        return consumerTag != null;
    }

    /**
     * Whether the consumer is subscribed, holds no delivery, and has received none for {@code idle} nanoseconds:
     * a subscription the broker no longer serves, if its queue holds ready messages meanwhile.
     */
    boolean idleSince(long now, long idle) {
        synchronized (this) {
            if (consumerTag == null) {
                return false;
            }
        }
        return now - lastActivity >= idle && life.held.isEmpty();
    }

    /** How many messages of its queue are ready, as the broker says; asked on the consumer's own channel. */
    long readyMessages() throws IOException {
        return life.channel.queueDeclarePassive(service.queue()).getMessageCount();
    }

    /**
     * Starts afresh, on a new channel, a subscription that the broker no longer serves and did not cancel:
     * RabbitMQ 3.10 neither cancels nor serves a consumer of a quorum queue that is deleted and declared again at
     * once, and the new queue hands it deliveries that never arrive; only closing the channel gives them back.
     * The consumer holds nothing, so nothing else goes back with them.
     */
    void resubscribe(String reason) {
        synchronized (this) {
            if (consumerTag == null || lost) {
                return;
            }
            lost = true;
        }
        log.warn("Consumer {} of {} {}; subscribing again on a new channel", number, service.queue(), reason);
        owner.notifyListener(listener -> listener.onConsumerLost(service, reason));
        closeQuietly(life.channel);
    }

    /** The prefetch it is subscribed with; 0 if it is not. */
    synchronized int prefetch() {
        return consumerTag == null ? 0 : prefetch;
    }

    /**
     * Notes that the subscription ended without being asked to; returns whether the listener is to hear of it:
     * it was subscribed, and not lost already.
     */
    private synchronized boolean loseSubscription() {
        String tag = consumerTag;
        consumerTag = null;
        if (tag == null || lost) {
            return false;
        }
        lost = true;
        return true;
    }

    // ---- Deliveries: on the handler thread ----

    /** Handles a delivery on the client's consumer thread that dispatched it. */
    private void handle(Delivery delivery) {
        handling = Thread.currentThread();
        try {
            if (number == 1 && owner.admission().opensWith(delivery)) {
                // This consumer was the cautious one, with a prefetch of 1: holding this delivery, it has nothing
                // on its way, and its cancellation returns nothing.
                if (owner.prefetch() > 1) {
                    cancel();
                }
                owner.execute(owner::review);
            }
            process(delivery);
        } catch (RuntimeException | Error e) {
            log.error("{} failed outside its handler; it goes back to its queue as a failed delivery", delivery, e);
            try {
                delivery.reject();
            } catch (IllegalStateException answeredAlready) {
                log.error("{}", answeredAlready.getMessage());
            }
        } finally {
            handling = null;
            if (interrupting) {
                Thread.interrupted(); // the thread is the client's: it must not stay interrupted
            }
        }
    }

    /** Takes in a delivery as it arrived: its headers read once, for good, and its handler found. */
    private Delivery arrived(Life current, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
        RetryHeaders headers = RetryHeaders.arrival(properties.getHeaders(), envelope.getExchange(), tierQueues);
        String routingKey = headers.originalRoutingKey().orElse(envelope.getRoutingKey());
        Routes.Dispatch dispatch = owner.routes().dispatch(routingKey);
        DeliveryContext context = new DeliveryContext(service,
                headers.originalExchange().orElse(envelope.getExchange()),
                routingKey,
                dispatch == null ? null : dispatch.route().key().value(),
                headers.attempts() + 1,
                headers::firstFailure,
                properties, headers.delivered(),
                Optional.ofNullable(properties.getExpiration()).or(headers::originalExpiration).orElse(null),
                body);
        owner.inFlightDeliveries().enter();
        current.held.add(envelope.getDeliveryTag());
        return new Delivery(current, envelope, properties, body, headers, context, dispatch, owner.inFlightDeliveries());
    }

    /** Handles one delivery to its end: acknowledged, or on its way to a tier or the parking lot. */
    void process(Delivery delivery) {
        if (!delivery.live()) {
            delivery.abandon();
            return;
        }
        DeliveryContext context = delivery.context;
        crossCheck(delivery);
        DeliveryObserver.Observation observation = owner.observe(context);
        Routes.Dispatch dispatch = delivery.dispatch;
        if (dispatch == null) {
            Decision.Park park = new Decision.Park(ParkReason.NO_HANDLER, "no handler of service " + service.name()
                    + " takes routing key " + context.routingKey());
            owner.finish(observation, DeliveryObserver.Outcome.of(park), null);
            republish(delivery, park, null, delivery.headers.parked(delivery.envelope, park, owner.now()));
            return;
        }
        Throwable failure = handle(dispatch, context);
        if (failure == null) {
            owner.finish(observation, DeliveryObserver.Outcome.SUCCESS, null);
            if (delivery.ack()) {
                owner.notifyListener(listener -> listener.onSuccess(context));
            }
            return;
        }
        if (failure instanceof InterruptedException) {
            // The consumer is being stopped, not the message failing: it goes back to the queue as it was.
            owner.finish(observation, DeliveryObserver.Outcome.REQUEUED, failure);
            log.info("{} was interrupted; it is requeued", context);
            delivery.requeue();
            return;
        }
        Decision decision = decide(dispatch, context, failure);
        owner.finish(observation, DeliveryObserver.Outcome.of(decision), failure);
        Map<String, Object> next = delivery.headers.afterFailure(delivery.envelope, context.attempt(), failure,
                decision, owner.now(), delivery.life.maxHeaderBytes);
        republish(delivery, decision, failure, next);
    }

    /** Runs the handler; returns what it threw, or null if it returned. */
    private Throwable handle(Routes.Dispatch dispatch, DeliveryContext context) {
        try {
            dispatch.handle(context, owner.codec());
            return null;
        } catch (Exception | Error e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return e;
        }
    }

    /** What a failure leads to: the handler's own say first, then the service's retry policy. */
    private Decision decide(Routes.Dispatch dispatch, DeliveryContext context, Throwable failure) {
        if (failure instanceof UndecodablePayloadException) {
            return new Decision.Park(ParkReason.UNDECODABLE, "cannot decode the body into "
                    + dispatch.route().payloadType().orElse("its payload") + ": " + failure.getMessage());
        }
        if (failure instanceof ParkMessageException) {
            return new Decision.Park(ParkReason.REJECTED, "the handler parked it: " + failure.getMessage());
        }
        if (failure instanceof RetryMessageException) {
            return owner.decisions().byAttempt(context.attempt());
        }
        return owner.decisions().after(context.attempt(), failure);
    }

    /**
     * Logs what the broker says about a delivery's past: an earlier delivery that ended unanswered, or a message
     * that came back from a tier queue without our attempt count.
     */
    private void crossCheck(Delivery delivery) {
        RetryHeaders headers = delivery.headers;
        int deliveryCount = headers.deliveryCount();
        if (deliveryCount > 0) {
            log.warn("{} was delivered {} time(s) before without an answer: a consumer crashed, lost its connection "
                    + "or was stopped while it held it", delivery.context, deliveryCount);
            owner.notifyListener(listener -> listener.onRedelivery(delivery.context, deliveryCount));
        } else if (delivery.envelope.isRedeliver()) {
            log.debug("{} is flagged redelivered; it may have been delivered before", delivery.context);
        }
        if (headers.provenance() == RetryHeaders.Provenance.RETRIED && headers.attempts() == 0) {
            log.warn("{} came back from a tier queue without its {} header; it is counted as a first attempt",
                    delivery.context, RetryHeaders.ATTEMPTS);
        }
    }

    // ---- Republishing ----

    private void republish(Delivery delivery, Decision decision, Throwable failure, Map<String, Object> headers) {
        String queue = decision instanceof Decision.Retry retry ? owner.decisions().tier(retry.tier()).queue()
                : service.parkingLot();
        send(new Republish(delivery, decision, failure, queue, RetryHeaders.outgoing(delivery.properties, headers),
                owner.ticker().nanos()));
    }

    /**
     * Sends a republish on the channel life its delivery came on, stamped with its publish sequence number, so
     * that a return is matched to the send it concerns.
     */
    void send(Republish republish) {
        Life current = republish.delivery.life;
        backingOff.remove(republish);
        if (!current.isCurrent()) {
            abandon(republish);
            return;
        }
        if (!republish.sending()) {
            return;
        }
        // One send at a time per channel, so that the sequence number registered is the one sent.
        synchronized (current) {
            long sequence = current.channel.getNextPublishSeqNo();
            PendingPublishes.Send send = new PendingPublishes.Send(republish, sequence,
                    owner.ticker().nanos() + owner.confirmTimeoutNanos());
            current.pending.add(send);
            try {
                current.channel.basicPublish(Topology.DEFAULT_EXCHANGE, republish.queue, true,
                        republish.outgoing.stamped(sequence), republish.delivery.body);
            } catch (IOException | RuntimeException e) {
                if (current.pending.remove(sequence) != null) {
                    refused(send, "it could not be sent: " + RetryingConsumer.describe(e));
                }
            }
        }
    }

    /**
     * Sends of one channel life that the broker confirmed: their deliveries are acknowledged, together where they
     * can be, unless the broker returned the send. Runs on the control thread, the only one that acknowledges
     * several deliveries at once.
     */
    private void confirmed(Life life, List<PendingPublishes.Send> sends) {
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
                owner.refusals().accepted(republish.queue);
            }
            DeliveryContext context = republish.delivery.context;
            Duration latency = Duration.ofNanos(owner.ticker().nanos() - republish.startedAt);
            owner.notifyListener(listener -> listener.onRepublished(context, republish.queue, latency));
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
        DeliveryContext context = republish.delivery.context;
        if (republish.decision instanceof Decision.Retry retry) {
            Tier tier = owner.decisions().tier(retry.tier());
            log.debug("{} failed ({}); retrying in {} through {}", context, republish.failure, tier.delay(), tier.queue());
            owner.notifyListener(listener -> listener.onRetry(context, republish.failure, tier));
        } else {
            Decision.Park park = (Decision.Park) republish.decision;
            log.warn("{} parked in {}: {} [{}]", context, republish.queue, park.detail(), park.reason().id());
            owner.notifyListener(listener -> listener.onPark(context, republish.failure, park));
        }
    }

    /** A send that failed: if none of the republish's sends is left, it is sent again after a back-off. */
    private void refused(PendingPublishes.Send send, String reason) {
        Republish republish = send.republish;
        if (!republish.failed()) {
            return;
        }
        if (!republish.delivery.live()) {
            abandon(republish);
            return;
        }
        owner.refusals().refused(republish.queue, reason);
        owner.notifyListener(listener -> listener.onRepublishFailed(republish.delivery.context, reason));
        backingOff.add(republish);
        owner.schedule(() -> send(republish), RetryingConsumer.backOff(republish.refusals()));
    }

    /** Sends again, beside the first, each republish the broker has not confirmed in time. */
    void expireOverdue(long now) {
        Life current = life;
        for (PendingPublishes.Send send : current.pending.overdue(now)) {
            send.deadline = now + owner.confirmTimeoutNanos();
            boolean blocked = owner.isBlocked();
            String reason = "the broker did not confirm it within " + owner.confirmTimeout()
                    + (blocked ? " (it blocks publishers, on a resource alarm; waiting for it)" : "");
            owner.refusals().refused(send.republish.queue, reason);
            owner.notifyListener(listener -> listener.onRepublishFailed(send.republish.delivery.context, reason));
            if (!blocked) {
                send(send.republish); // a second send would only wait too while the broker blocks us
            }
        }
    }

    /** Makes the client forget a subscription of a closed channel, so that its recovery does not subscribe it again. */
    private static void forgetSubscription(Channel channel, String tag) {
        if (tag == null) {
            return;
        }
        try {
            channel.basicCancel(tag);
        } catch (IOException | AlreadyClosedException closed) {
            log.debug("Forgot consumer {} of a closed channel", tag);
        }
    }

    private static void abandon(Republish republish) {
        if (republish.abandon()) {
            republish.delivery.abandon();
        }
    }

    // ---- Stopping ----

    /**
     * Requeues every republish waiting out a back-off. (Deliveries the client has not dispatched yet are
     * requeued as they arrive, the consumer being stopped.)
     */
    void requeueWaiting() {
        for (Republish republish : List.copyOf(backingOff)) {
            backingOff.remove(republish);
            if (republish.abandon()) {
                republish.delivery.requeue();
            }
        }
    }

    /** Interrupts the handler that still runs after a stop's timeout: an {@link InterruptedException} requeues it. */
    void interruptHandler() {
        Thread thread = handling;
        if (thread != null) {
            interrupting = true;
            thread.interrupt();
        }
    }

    void close() {
        closeQuietly(life.channel);
    }

    private static void closeQuietly(Channel channel) {
        try {
            if (channel.isOpen()) {
                channel.close();
            }
        } catch (IOException | java.util.concurrent.TimeoutException | AlreadyClosedException e) {
            log.debug("Could not close channel {}", channel.getChannelNumber(), e);
        }
    }

    /** The client's callbacks for one channel object; they hand everything over and return at once. */
    private final class Callbacks implements Consumer, ConfirmListener, ReturnListener, ShutdownListener,
            RecoveryListener {

        private final Channel channel;
        private volatile long lastTag;

        Callbacks(Channel channel) {
            this.channel = channel;
        }

        /** The life this channel object is in now, if it is the consumer's current one. */
        private Life current() {
            Life current = life;
            return current.channel == channel && !current.ended ? current : null;
        }

        @Override
        public void handleDelivery(String consumerTag, Envelope envelope, AMQP.BasicProperties properties,
                byte[] body) {
            lastTag = Math.max(lastTag, envelope.getDeliveryTag());
            Life current = current();
            if (current == null || envelope.getDeliveryTag() <= current.tagFloor) {
                return; // a delivery of a closed channel: the broker has requeued it
            }
            lastActivity = owner.ticker().nanos();
            if (owner.isStopped()) {
                try {
                    channel.basicNack(envelope.getDeliveryTag(), false, true);
                } catch (IOException | AlreadyClosedException e) {
                    log.debug("Could not requeue a delivery that arrived while stopping", e);
                }
                return;
            }
            handle(arrived(current, envelope, properties, body));
        }

        @Override
        public void handleConsumeOk(String tag) {
            boolean stray;
            synchronized (ChannelConsumer.this) {
                stray = !tag.equals(consumerTag);
            }
            if (stray) {
                // Not one this consumer made: one subscription is enough.
                owner.execute(() -> {
                    try {
                        channel.basicCancel(tag);
                    } catch (IOException | AlreadyClosedException e) {
                        log.debug("Could not cancel the extra consumer {}", tag, e);
                    }
                });
            }
        }

        @Override
        public void handleCancelOk(String consumerTag) {
        }

        @Override
        public void handleCancel(String consumerTag) {
            // The broker cancelled it: the queue was deleted, or its leader moved. The client would subscribe it
            // again on its next recovery, so it forgets it here; the control thread subscribes anew.
            boolean wasSubscribed = loseSubscription();
            synchronized (ChannelConsumer.this) {
                // Not at once: RabbitMQ 3.10 closes the whole connection on a consume from a quorum queue that is
                // still being deleted.
                nextSubscription = owner.ticker().nanos() + RetryingConsumer.backOff(1);
            }
            owner.execute(() -> {
                try {
                    channel.basicCancel(consumerTag);
                } catch (IOException | AlreadyClosedException e) {
                    log.debug("Could not forget cancelled consumer {}", consumerTag, e);
                }
                if (wasSubscribed) {
                    String reason = "the broker cancelled it (was " + service.queue() + " deleted, or did its leader move?)";
                    log.warn("Consumer {} of {}: {}; subscribing again", number, service.queue(), reason);
                    owner.notifyListener(listener -> listener.onConsumerLost(service, reason));
                }
                owner.review();
            });
        }

        @Override
        public void handleShutdownSignal(String consumerTag, ShutdownSignalException cause) {
        }

        @Override
        public void handleRecoverOk(String consumerTag) {
        }

        @Override
        public void handleAck(long sequence, boolean multiple) {
            Life current = current();
            if (current == null) {
                return;
            }
            List<PendingPublishes.Send> sends = current.pending.take(sequence, multiple);
            if (!sends.isEmpty()) {
                owner.settle(() -> confirmed(current, sends));
            }
        }

        @Override
        public void handleNack(long sequence, boolean multiple) {
            Life current = current();
            if (current == null) {
                return;
            }
            List<PendingPublishes.Send> sends = current.pending.take(sequence, multiple);
            if (!sends.isEmpty()) {
                owner.settle(() -> sends.forEach(send -> refused(send, "the broker refused it (nack)")));
            }
        }

        @Override
        public void handleReturn(int replyCode, String replyText, String exchange, String routingKey,
                AMQP.BasicProperties properties, byte[] body) {
            Life current = current();
            if (current != null) {
                RetryHeaders.of(properties.getHeaders()).publishId().ifPresent(sequence ->
                        current.pending.returned(sequence, replyCode + " " + replyText));
            }
        }

        @Override
        public void shutdownCompleted(ShutdownSignalException cause) {
            Life ended = current();
            if (ended == null) {
                return;
            }
            ended.ended = true;
            // The broker requeues every unacknowledged delivery of a closed channel: what this life holds is let
            // go, on the control thread.
            List<PendingPublishes.Send> sends = ended.pending.clear();
            String tag;
            synchronized (ChannelConsumer.this) {
                tag = consumerTag;
            }
            boolean wasSubscribed = !owner.isStopped() && loseSubscription();
            if (cause.isHardError() && channel instanceof Recoverable) {
                // Its connection was lost, and every delivery it held comes back: the consumers turn cautious, and
                // subscribe themselves once the client has recovered the channel, which must not subscribe them
                // again at their old prefetch. Cancelling on a closed channel only makes the client forget.
                owner.admission().turnCautious();
                forgetSubscription(channel, tag);
            }
            owner.execute(() -> {
                sends.forEach(send -> abandon(send.republish));
                if (wasSubscribed) {
                    String reason = "its " + (cause.isHardError() ? "connection" : "channel") + " closed: "
                            + cause.getMessage();
                    log.warn("Consumer {} of {} lost: {}", number, service.queue(), reason);
                    owner.notifyListener(listener -> listener.onConsumerLost(service, reason));
                }
                owner.review();
            });
        }

        @Override
        public void handleRecovery(Recoverable recoverable) {
            life = new Life(channel, this, lastTag);
            owner.execute(owner::review);
        }

        @Override
        public void handleRecoveryStarted(Recoverable recoverable) {
        }
    }
}
