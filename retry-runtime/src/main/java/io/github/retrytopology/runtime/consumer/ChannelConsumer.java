package io.github.retrytopology.runtime.consumer;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.AlreadyClosedException;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.Return;
import com.rabbitmq.client.ShutdownSignalException;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.Tier;
import io.github.retrytopology.model.decision.Decision;
import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.codec.PayloadCodec;
import io.github.retrytopology.runtime.codec.UndecodablePayloadException;
import io.github.retrytopology.runtime.headers.RetryHeaders;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes a service's queue on one channel. Each delivery goes to its handler; a failure is republished to
 * its tier or the parking lot, and the delivery is acknowledged only once the broker confirms that republish.
 * Confirms are tracked as they come, so a slow one holds up only its own delivery. A republish that the broker
 * refuses, returns or does not confirm in time requeues the delivery instead: at worst it is delivered again.
 */
final class ChannelConsumer extends DefaultConsumer {

    private static final Logger log = LoggerFactory.getLogger(RetryingConsumer.class);

    private final Routes routes;
    private final Service service;
    private final Settings settings;
    private final InFlight inFlight;
    private final Executor handlerThread;
    private final int maxHeaderBytes;
    private final Set<String> tierQueues;
    private final PendingPublishes<Republish> pending = new PendingPublishes<>();

    /** What the consumers of one service share. */
    record Settings(PayloadCodec codec, RetryListener listener, Clock clock, Duration confirmTimeout) {
    }

    /** A failed delivery on its way to a tier or the parking lot. */
    private record Republish(long deliveryTag, DeliveryContext context, Throwable failure, Decision decision,
            String queue) {
    }

    ChannelConsumer(Channel channel, Routes routes, Settings settings, InFlight inFlight, Executor handlerThread)
            throws IOException {
        super(channel);
        this.routes = routes;
        this.service = routes.service();
        this.settings = settings;
        this.inFlight = inFlight;
        this.handlerThread = handlerThread;
        int frameMax = channel.getConnection().getFrameMax();
        // Our headers, and the publisher's, must leave room in the frame for the other properties.
        this.maxHeaderBytes = (frameMax == 0 ? 131_072 : frameMax) - 1_024;
        this.tierQueues = service.tiers().stream().map(Tier::queue).collect(Collectors.toUnmodifiableSet());
        channel.confirmSelect();
        channel.addConfirmListener(this::confirmed, this::refused);
        channel.addReturnListener(this::returned);
        channel.addShutdownListener(this::closed);
    }

    /**
     * Hands the delivery to this consumer's own thread: the client's dispatch threads (one per core by default)
     * are shared by every channel of the connection, and a slow handler must hold up only its own channel.
     */
    @Override
    public void handleDelivery(String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
        inFlight.enter();
        try {
            handlerThread.execute(() -> {
                try {
                    deliver(envelope, properties, body);
                } catch (RuntimeException e) {
                    log.error("Delivery {} of {} failed outside its handler; it is requeued",
                            envelope.getDeliveryTag(), service.queue(), e);
                    answer(envelope.getDeliveryTag(), false);
                }
            });
        } catch (RejectedExecutionException stopped) {
            answer(envelope.getDeliveryTag(), false);
        }
    }

    @Override
    public void handleCancel(String consumerTag) {
        log.warn("The broker cancelled the consumer of {}; was the queue deleted?", service.queue());
    }

    private void deliver(Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
        RetryHeaders headers = RetryHeaders.of(properties.getHeaders());
        DeliveryContext context = new DeliveryContext(service,
                headers.originalExchange().orElse(envelope.getExchange()),
                headers.originalRoutingKey().orElse(envelope.getRoutingKey()),
                headers.attempts() + 1,
                headers.firstFailure().orElse(null),
                properties, body);
        crossCheck(envelope, headers, context);
        Optional<Routes.Dispatch> dispatch = routes.dispatch(context.routingKey());
        if (dispatch.isEmpty()) {
            Decision.Park park = new Decision.Park(ParkReason.NO_HANDLER, "no handler of service " + service.name()
                    + " takes routing key " + context.routingKey());
            republish(envelope, context, null, park, headers.parked(envelope, park, settings.clock().instant()));
            return;
        }
        Throwable failure = handle(dispatch.get(), context);
        if (failure == null) {
            if (answer(envelope.getDeliveryTag(), true)) {
                notify(listener -> listener.onSuccess(context));
            }
            return;
        }
        if (failure instanceof InterruptedException) {
            // The consumer is being stopped, not the message failing: it goes back to the queue as it was.
            log.info("{} was interrupted; it is requeued", context);
            answer(envelope.getDeliveryTag(), false);
            return;
        }
        Decision decision = decide(dispatch.get(), context, failure);
        Map<String, Object> next = headers.afterFailure(envelope, context.attempt(), failure, decision,
                settings.clock().instant(), maxHeaderBytes);
        republish(envelope, context, failure, decision, next);
    }

    /** Runs the handler; returns what it threw, or null if it returned. */
    private Throwable handle(Routes.Dispatch dispatch, DeliveryContext context) {
        try {
            dispatch.handle(context, settings.codec());
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
            return service.retryPolicy().decideByAttempt(context.attempt());
        }
        return service.decide(context.attempt(), failure);
    }

    private void republish(Envelope envelope, DeliveryContext context, Throwable failure, Decision decision,
            Map<String, Object> headers) {
        String queue = decision instanceof Decision.Retry retry ? service.tier(retry.tier()).queue() : service.parkingLot();
        String publishId = UUID.randomUUID().toString();
        AMQP.BasicProperties properties = RetryHeaders.republish(context.properties(), headers, publishId);
        Republish republish = new Republish(envelope.getDeliveryTag(), context, failure, decision, queue);
        Channel channel = getChannel();
        // One republish at a time per channel, so that the sequence number registered is the one sent.
        synchronized (this) {
            long sequence = channel.getNextPublishSeqNo();
            pending.add(sequence, publishId, settings.clock().instant().plus(settings.confirmTimeout()), republish);
            try {
                channel.basicPublish(Topology.DEFAULT_EXCHANGE, queue, true, properties, context.rawBody());
            } catch (IOException | RuntimeException e) {
                pending.cancel(sequence);
                settle(new PendingPublishes.Settled<>(republish, "it could not be sent: " + e.getMessage()));
            }
        }
    }

    /** Settles republishes whose confirm is overdue; called periodically. */
    void expire() {
        pending.expire(settings.clock().instant()).forEach(this::settle);
    }

    private void confirmed(long sequence, boolean multiple) {
        pending.ack(sequence, multiple).forEach(this::settle);
    }

    private void refused(long sequence, boolean multiple) {
        pending.nack(sequence, multiple).forEach(this::settle);
    }

    private void returned(Return returned) {
        RetryHeaders.of(returned.getProperties().getHeaders()).publishId()
                .ifPresent(id -> pending.returned(id, returned.getReplyCode() + " " + returned.getReplyText()));
    }

    private void closed(ShutdownSignalException cause) {
        // The broker requeues every unacknowledged delivery of a closed channel itself.
        pending.drain("the channel closed before the broker confirmed it").forEach(this::settle);
    }

    private void settle(PendingPublishes.Settled<Republish> settled) {
        Republish republish = settled.value();
        DeliveryContext context = republish.context();
        if (!settled.confirmed()) {
            log.warn("{}: could not republish it to {}: {}; it is requeued and will be delivered again",
                    context, republish.queue(), settled.failure());
            answer(republish.deliveryTag(), false);
            notify(listener -> listener.onRepublishFailed(context, settled.failure()));
            return;
        }
        answer(republish.deliveryTag(), true);
        if (republish.decision() instanceof Decision.Retry retry) {
            Tier tier = service.tier(retry.tier());
            log.debug("{} failed ({}); retrying in {} through {}", context, republish.failure(), tier.delay(), tier.queue());
            notify(listener -> listener.onRetry(context, republish.failure(), tier));
        } else {
            Decision.Park park = (Decision.Park) republish.decision();
            log.warn("{} parked in {}: {} [{}]", context, republish.queue(), park.detail(), park.reason().id());
            notify(listener -> listener.onPark(context, republish.failure(), park));
        }
    }

    /**
     * Acknowledges or requeues a delivery, once: every delivery that entered leaves here. Returns whether the
     * answer was sent; after a connection recovery, the client drops answers to deliveries of the lost
     * connection without a word, and the broker delivers those again.
     */
    private boolean answer(long deliveryTag, boolean ack) {
        try {
            if (ack) {
                getChannel().basicAck(deliveryTag, false);
            } else {
                getChannel().basicNack(deliveryTag, false, true);
            }
            return true;
        } catch (IOException | AlreadyClosedException e) {
            log.debug("Could not answer delivery {}; its channel closed and the broker requeues it", deliveryTag, e);
            return false;
        } finally {
            inFlight.exit();
        }
    }

    /**
     * Compares our attempt count with what the broker says, for the logs: a redelivery means an earlier
     * delivery ended without an answer, and expiries from our tier queues without our header mean that
     * something between the queues dropped it.
     */
    private void crossCheck(Envelope envelope, RetryHeaders headers, DeliveryContext context) {
        int deliveryCount = headers.deliveryCount();
        if (envelope.isRedeliver() || deliveryCount > 0) {
            int earlier = Math.max(deliveryCount, 1);
            log.warn("{} was delivered {} time(s) before without an answer: a consumer crashed or lost its "
                    + "connection while handling it, or its republish failed", context, earlier);
            notify(listener -> listener.onRedelivery(context, earlier));
        }
        long expiries = headers.deaths().stream()
                .filter(death -> death.reason().equals("expired") && tierQueues.contains(death.queue()))
                .mapToLong(RetryHeaders.Death::count)
                .sum();
        if (headers.attempts() == 0 && expiries > 0) {
            log.warn("{} came back from a tier queue (x-death counts {} expiries) without its {} header; it is "
                    + "counted as a first attempt", context, expiries, RetryHeaders.ATTEMPTS);
        } else if (expiries > headers.attempts()) {
            log.debug("{}: x-death counts {} expiries, our header {} failures", context, expiries, headers.attempts());
        }
    }

    private void notify(Consumer<RetryListener> event) {
        try {
            event.accept(settings.listener());
        } catch (RuntimeException e) {
            log.warn("A retry listener failed; ignored", e);
        }
    }
}
