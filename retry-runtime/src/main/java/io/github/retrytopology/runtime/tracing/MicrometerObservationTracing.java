package io.github.retrytopology.runtime.tracing;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.decision.Decision;
import io.github.retrytopology.runtime.consumer.DeliveryContext;
import io.github.retrytopology.runtime.consumer.DeliveryObserver;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.transport.ReceiverContext;
import java.util.Map;

/**
 * An observation of each attempt at a message, through Micrometer's Observation API (an optional dependency): with
 * Micrometer Tracing, whichever tracer it bridges to (Brave or OpenTelemetry), a consumer span parented by the
 * trace context its publisher propagated in the message's headers, current while the handler runs.
 *
 * <pre>{@code
 * RetryingConsumer.builder(connection, routes).observer(MicrometerObservationTracing.of(observationRegistry)).start();
 * }</pre>
 *
 * The observation is named {@value #NAME}, its contextual name (the span's) is {@code process} and the exchange,
 * and it carries the attributes of {@link OpenTelemetryTracing}'s spans: as low-cardinality values
 * {@code messaging.system}, {@code messaging.operation.type}, {@code messaging.destination.name},
 * {@code messaging.destination.subscription.name}, {@code retry.service}, {@code retry.route},
 * {@code retry.delay.backend} and, once the handler is done, {@code retry.outcome}, {@code retry.tier} (a retry's
 * tier) and {@code retry.park.reason} (a park's), each {@code none} where it does not apply; as high-cardinality ones
 * {@code messaging.rabbitmq.destination.routing_key}, {@code messaging.message.id} and {@code retry.attempt}. A
 * handler that threw is the observation's error. A registry with metrics handlers times observations too, as
 * {@value #NAME}.
 */
public final class MicrometerObservationTracing implements DeliveryObserver {

    /** The observation's name. */
    public static final String NAME = "retry.process";

    private static final String NONE = "none";

    private final ObservationRegistry registry;

    private MicrometerObservationTracing(ObservationRegistry registry) {
        this.registry = registry;
    }

    /** Observations in this registry, which its handlers make spans of. */
    @SuppressWarnings("exports") // Micrometer is optional: a module that calls this requires it itself
    public static MicrometerObservationTracing of(ObservationRegistry registry) {
        return new MicrometerObservationTracing(requireNonNull(registry, "registry"));
    }

    @Override
    public Observation handling(DeliveryContext context) {
        ReceiverContext<Map<String, Object>> receiver = new ReceiverContext<>(Headers::text);
        receiver.setCarrier(context.properties().getHeaders());
        receiver.setRemoteServiceName("RabbitMQ");
        // Micrometer's Observation, which the name DeliveryObserver.Observation hides in here.
        io.micrometer.observation.Observation observation = io.micrometer.observation.Observation
                .createNotStarted(NAME, () -> receiver, registry)
                .contextualName("process " + context.exchange())
                .lowCardinalityKeyValue("messaging.system", "rabbitmq")
                .lowCardinalityKeyValue("messaging.operation.type", "process")
                .lowCardinalityKeyValue("messaging.destination.name", context.exchange())
                .lowCardinalityKeyValue("messaging.destination.subscription.name", context.service().queue())
                .lowCardinalityKeyValue("retry.service", context.service().name())
                .lowCardinalityKeyValue("retry.route", context.bindingKey().orElse(NONE))
                .lowCardinalityKeyValue("retry.delay.backend", context.service().delayBackend().id())
                .lowCardinalityKeyValue("network.protocol.name", "amqp")
                .lowCardinalityKeyValue("network.protocol.version", context.service().protocol().version())
                .highCardinalityKeyValue("retry.attempt", Integer.toString(context.attempt()));
        if (!context.routingKey().isEmpty()) {
            observation.highCardinalityKeyValue("messaging.rabbitmq.destination.routing_key", context.routingKey());
        }
        context.messageId().ifPresent(id -> observation.highCardinalityKeyValue("messaging.message.id", id));
        observation.start();
        io.micrometer.observation.Observation.Scope scope = observation.openScope();
        return (outcome, failure) -> {
            try {
                // Every observation has the same low-cardinality keys ("none" where one does not apply): a registry
                // that times observations, Prometheus's above all, wants one set of tag keys per meter name.
                observation.lowCardinalityKeyValue("retry.outcome", outcome.id())
                        .lowCardinalityKeyValue("retry.tier", outcome.decision() instanceof Decision.Retry retry
                                ? Integer.toString(retry.tier()) : NONE)
                        .lowCardinalityKeyValue("retry.park.reason", outcome.decision() instanceof Decision.Park park
                                ? park.reason().id() : NONE);
                if (failure != null) {
                    observation.error(failure);
                }
            } finally {
                scope.close();
                observation.stop();
            }
        };
    }
}
