package io.github.retrytopology.runtime.consumer;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;
import io.github.retrytopology.model.decision.Decision;
import io.github.retrytopology.model.decision.DelayBackend;
import io.github.retrytopology.model.decision.Result;
import io.github.retrytopology.runtime.amqp091.Received;
import io.github.retrytopology.runtime.amqp091.Republishing;
import io.github.retrytopology.runtime.codec.PayloadCodec;
import io.github.retrytopology.runtime.codec.UndecodablePayloadException;
import io.github.retrytopology.runtime.headers.RetryHeaders;
import io.github.retrytopology.runtime.internal.HeaderWriter;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Handles deliveries to their end, on the thread that dispatched them: runs the handler, tells the model what came
 * of it, and does what the model decides: acknowledge the delivery, reject it back to a queue that delays it, or
 * hand it to its channel life's republisher, which acknowledges it once the broker has its retry or park.
 */
final class DeliveryProcessor {

    private static final Logger log = LoggerFactory.getLogger(RetryingConsumer.class);

    private final ConsumerContext context;
    private final ConsumerSettings settings;

    DeliveryProcessor(ConsumerContext context) {
        this.context = context;
        this.settings = context.settings;
    }

    /** Takes in a delivery as it arrived: its headers read once, for good, and its handler found. */
    Delivery arrived(ChannelLife life, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
        RetryHeaders headers = RetryHeaders.arrival(Received.headers(properties.getHeaders()), envelope.getExchange(),
                settings.tierQueues());
        String routingKey = headers.originalRoutingKey().orElse(envelope.getRoutingKey());
        Routes.Dispatch dispatch = settings.routes().dispatch(routingKey);
        DeliveryContext delivered = new DeliveryContext(settings.service(),
                headers.originalExchange().orElse(envelope.getExchange()),
                routingKey,
                dispatch == null ? null : dispatch.route().key().value(),
                settings.service().delayBackend().attempt(headers.attempts(), headers.deliveryCount()),
                headers::firstFailure,
                properties, headers.delivered(),
                Optional.ofNullable(properties.getExpiration()).or(headers::originalExpiration).orElse(null),
                body);
        context.inFlight.enter();
        life.settlements.arrived(envelope.getDeliveryTag());
        return new Delivery(life, envelope, properties, body, headers, delivered, dispatch, context.inFlight);
    }

    /**
     * Handles one delivery to its end: acknowledged, on its way to a tier or the parking lot, or requeued as it was
     * if its handler was interrupted by a stopping consumer. The observation hears the outcome before the broker is
     * told, whatever happens meanwhile.
     */
    void process(Delivery delivery) {
        if (!delivery.live()) {
            delivery.abandon();
            return;
        }
        DeliveryContext delivered = delivery.context;
        crossCheck(delivery);
        Handled handled = handle(settings, delivery.dispatch, delivered);
        @Nullable Decision decision = handled.decision();
        @Nullable Throwable failure = handled.failure();
        if (decision == null) {
            log.info("{} was interrupted; it is requeued", delivered);
            delivery.requeue();
        } else if (decision instanceof Decision.Acknowledge) {
            if (delivery.ack()) {
                settings.listeners().tell(listener -> listener.onSuccess(delivered));
            }
        } else if (decision instanceof Decision.Requeue requeue) {
            // A reject, not a nack: the broker counts it and delays it; a nack it would do neither on.
            Throwable failed = failure;
            if (delivery.reject()) {
                settings.listeners().tell(listener -> listener.onRequeued(delivered, failed, requeue));
            }
        } else {
            republish(delivery, decision, failure);
        }
    }

    /**
     * What came of a delivery's handling: the model's decision, null if the handler was interrupted by a stopping
     * consumer (the message then goes back as it was), and the failure, if any.
     */
    record Handled(@Nullable Decision decision, @Nullable Throwable failure) {
    }

    /**
     * Handles a delivery on either protocol, on the thread that dispatched it: runs its handler under the observers,
     * and has the model decide what follows. The observation hears the outcome before the broker is told.
     */
    static Handled handle(ConsumerSettings settings, Routes.@Nullable Dispatch dispatch, DeliveryContext delivered) {
        DeliveryObserver.Observation observation = settings.listeners().observe(delivered);
        DeliveryObserver.Outcome outcome = DeliveryObserver.Outcome.REQUEUED;
        @Nullable Throwable failure = null;
        @Nullable Decision decision = null;
        try {
            Result result = run(dispatch, delivered, settings.codec());
            failure = result.failure();
            decision = settings.policy().decide(delivered.attempt(), result);
            outcome = DeliveryObserver.Outcome.of(decision);
        } catch (InterruptedException e) {
            // The consumer is being stopped, not the message failing: it goes back to the queue as it was.
            Thread.currentThread().interrupt();
            failure = e;
        } finally {
            settings.listeners().finish(observation, outcome, failure);
        }
        return new Handled(decision, failure);
    }

    /** Runs the handler of a delivery, on either protocol, and says what came of it. */
    private static Result run(Routes.@Nullable Dispatch dispatch, DeliveryContext context, PayloadCodec codec)
            throws InterruptedException {
        if (dispatch == null) {
            return Result.noHandler(context.routingKey());
        }
        try {
            dispatch.handle(context, codec);
            return Result.returned();
        } catch (InterruptedException e) {
            throw e;
        } catch (UndecodablePayloadException e) {
            return Result.undecodable(dispatch.route().payloadType().orElse("its payload"), e);
        } catch (ParkMessageException e) {
            return Result.askedToPark(e);
        } catch (RetryMessageException e) {
            return Result.askedToRetry(e);
        } catch (Exception | Error e) {
            return Result.threw(e);
        }
    }

    private void republish(Delivery delivery, Decision decision, @Nullable Throwable failure) {
        String queue = decision instanceof Decision.Retry retry ? settings.tier(retry.tier()).queue()
                : settings.service().parkingLot();
        Map<String, Object> headers = failure == null
                ? HeaderWriter.parked(delivery.headers, delivery.arrival(), (Decision.Park) decision, settings.now())
                : HeaderWriter.afterFailure(delivery.headers, delivery.arrival(), delivery.context.attempt(),
                        failure, decision, settings.now(), delivery.life.maxHeaderBytes);
        delivery.life.republisher.send(new Republish(delivery, decision, failure, queue,
                Republishing.outgoing(delivery.properties, headers), settings.ticker().nanos()));
    }

    /**
     * Logs what the broker says about a delivery's past: an earlier delivery that ended unanswered, or a message
     * that came back from a tier queue without our attempt count.
     */
    private void crossCheck(Delivery delivery) {
        RetryHeaders headers = delivery.headers;
        int deliveryCount = headers.deliveryCount();
        // Where the broker delays retries, it counts each of them as it counts a crash: no sign of one then.
        if (deliveryCount > 0 && settings.service().delayBackend() == DelayBackend.TIER_QUEUES) {
            log.warn("{} was delivered {} time(s) before without an answer: a consumer crashed, lost its connection "
                    + "or was stopped while it held it", delivery.context, deliveryCount);
            settings.listeners().tell(listener -> listener.onRedelivery(delivery.context, deliveryCount));
        } else if (delivery.envelope.isRedeliver()) {
            log.debug("{} is flagged redelivered; it may have been delivered before", delivery.context);
        }
        if (headers.provenance() == RetryHeaders.Provenance.RETRIED && headers.attempts() == 0) {
            log.warn("{} came back from a tier queue without its {} header; it is counted as a first attempt",
                    delivery.context, RetryHeaders.ATTEMPTS);
        }
    }
}
