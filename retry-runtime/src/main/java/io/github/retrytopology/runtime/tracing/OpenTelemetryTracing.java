package io.github.retrytopology.runtime.tracing;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.decision.Decision;
import io.github.retrytopology.runtime.consumer.DeliveryContext;
import io.github.retrytopology.runtime.consumer.DeliveryObserver;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import java.util.Map;

/**
 * A consumer span for each attempt at a message, through the OpenTelemetry API (an optional dependency).
 *
 * <pre>{@code
 * RetryingConsumer.builder(connection, routes).observer(OpenTelemetryTracing.of(openTelemetry)).start();
 * }</pre>
 *
 * The span's parent is the context its publisher propagated in the message's headers ({@code traceparent} and
 * {@code tracestate} under W3C's propagator; whatever {@code openTelemetry}'s propagators read). Retries, the
 * parking lot and a replay keep the message's headers as published, so every attempt, the first or one after a
 * replay, is a child of the publisher's span and they sit side by side in its trace. The span is current while
 * the handler runs: what the handler traces, and what it publishes through an instrumented client, belongs to it.
 *
 * <p>Its name is {@code process} and the exchange the message was published to, and it carries OpenTelemetry's
 * messaging attributes ({@code messaging.system}, {@code messaging.operation.type}, {@code
 * messaging.destination.name} (the exchange), {@code messaging.rabbitmq.destination.routing_key}, {@code
 * messaging.destination.subscription.name} (the service's queue), {@code messaging.message.id}, {@code
 * messaging.message.body.size}) and the retry's own: {@code retry.service}, {@code retry.route} (the binding key
 * that took the message), {@code retry.attempt}, {@code retry.max_attempts}, {@code retry.delay.backend}
 * ({@code tier-queues} or {@code broker}), and once the handler is done {@code retry.outcome} ({@code success},
 * {@code retry}, {@code park} or {@code requeued}), {@code retry.delay_ms} for a retry, with {@code retry.tier}
 * and {@code retry.tier.queue} for one through a tier, {@code retry.park.reason} for a park. A handler that threw
 * records the exception, sets {@code error.type} to its class and the span's status to error.
 */
public final class OpenTelemetryTracing implements DeliveryObserver {

    /** The instrumentation scope's name. */
    public static final String SCOPE = "io.github.retrytopology.runtime";

    /** Reads a header as text. */
    private static final TextMapGetter<Map<String, Object>> HEADERS = Headers::text;

    private final Tracer tracer;
    private final TextMapPropagator propagator;

    private OpenTelemetryTracing(Tracer tracer, TextMapPropagator propagator) {
        this.tracer = tracer;
        this.propagator = propagator;
    }

    /** Spans through this OpenTelemetry's tracer provider, parented through its propagators. */
    @SuppressWarnings("exports") // OpenTelemetry is optional: a module that calls this requires it itself
    public static OpenTelemetryTracing of(OpenTelemetry openTelemetry) {
        requireNonNull(openTelemetry, "openTelemetry");
        return new OpenTelemetryTracing(openTelemetry.getTracer(SCOPE),
                openTelemetry.getPropagators().getTextMapPropagator());
    }

    @Override
    public Observation handling(DeliveryContext context) {
        Map<String, Object> headers = context.properties().getHeaders();
        Context parent = headers == null ? Context.root() : propagator.extract(Context.root(), headers, HEADERS);
        var builder = tracer.spanBuilder("process " + context.exchange())
                .setSpanKind(SpanKind.CONSUMER)
                .setParent(parent)
                .setAttribute("messaging.system", "rabbitmq")
                .setAttribute("messaging.operation.type", "process")
                .setAttribute("messaging.operation.name", "process")
                .setAttribute("messaging.destination.name", context.exchange())
                .setAttribute("messaging.destination.subscription.name", context.service().queue())
                .setAttribute("messaging.message.body.size", (long) context.bodySize())
                .setAttribute("retry.service", context.service().name())
                .setAttribute("retry.attempt", (long) context.attempt())
                .setAttribute("retry.max_attempts", (long) context.service().retryPolicy().maxAttempts())
                .setAttribute("retry.delay.backend", context.service().delayBackend().id())
                .setAttribute("network.protocol.name", "amqp")
                .setAttribute("network.protocol.version", context.service().protocol().version());
        if (!context.routingKey().isEmpty()) {
            builder.setAttribute("messaging.rabbitmq.destination.routing_key", context.routingKey());
        }
        context.messageId().ifPresent(id -> builder.setAttribute("messaging.message.id", id));
        context.bindingKey().ifPresent(key -> builder.setAttribute("retry.route", key));
        Span span = builder.startSpan();
        Scope scope = span.makeCurrent();
        return (outcome, failure) -> {
            try {
                span.setAttribute("retry.outcome", outcome.id());
                if (outcome.decision() instanceof Decision.Retry retry) {
                    span.setAttribute("retry.tier", (long) retry.tier());
                    span.setAttribute("retry.tier.queue", context.service().tier(retry.tier()).queue());
                    span.setAttribute("retry.delay_ms", retry.delay().toMillis());
                } else if (outcome.decision() instanceof Decision.Requeue requeue) {
                    span.setAttribute("retry.delay_ms", requeue.delay().toMillis());
                } else if (outcome.decision() instanceof Decision.Park park) {
                    span.setAttribute("retry.park.reason", park.reason().id());
                }
                if (failure != null) {
                    span.recordException(failure);
                    span.setAttribute("error.type", failure.getClass().getName());
                    span.setStatus(StatusCode.ERROR, String.valueOf(failure.getMessage()));
                } else if (outcome.decision() instanceof Decision.Park park) {
                    span.setAttribute("error.type", park.reason().id());
                    span.setStatus(StatusCode.ERROR, park.detail());
                }
            } finally {
                scope.close();
                span.end();
            }
        };
    }
}
