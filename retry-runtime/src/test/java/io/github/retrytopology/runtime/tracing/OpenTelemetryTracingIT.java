package io.github.retrytopology.runtime.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.consumer.DeliveryContext;
import io.github.retrytopology.runtime.consumer.MessageHandler;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.consumer.Routes;
import io.github.retrytopology.runtime.parkinglot.ParkedMessage;
import io.github.retrytopology.runtime.parkinglot.ParkingLot;
import io.github.retrytopology.runtime.parkinglot.ReplayFilter;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestVhost;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The publisher's trace context through retries, the parking lot and a replay, on a real broker; and the spans
 * {@link OpenTelemetryTracing} makes of each attempt.
 */
class OpenTelemetryTracingIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private static final String TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    private static final String TRACESTATE = "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7";

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final OpenTelemetrySdk openTelemetry = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    private final List<RetryingConsumer> consumers = new CopyOnWriteArrayList<>();
    private Service orders;
    private Topology topology;
    private Connection connection;
    private Channel channel;

    /** What a handler saw of one delivery's trace context. */
    record Seen(int attempt, String traceparent, String tracestate) {
    }

    @BeforeEach
    void start() throws Exception {
        RetrySpec spec = Specs.load(Path.of("src/test/resources/specs/fast-retries.yml"));
        orders = spec.service("orders");
        topology = broker.declare(spec);
        connection = broker.connect("tracing-it");
        channel = connection.createChannel();
        channel.confirmSelect();
    }

    @AfterEach
    void stop() throws Exception {
        for (RetryingConsumer consumer : consumers) {
            consumer.stop(Duration.ofSeconds(5));
        }
        connection.close();
        broker.deleteQueues(topology);
        openTelemetry.close();
    }

    @Test
    void traceContextSurvivesEveryRetryTheParkingLotAndAReplay() throws Exception {
        List<Seen> seen = new CopyOnWriteArrayList<>();
        RetryingConsumer failing = consume(context -> {
            seen.add(seen(context));
            throw new IllegalStateException("down");
        }, null);

        publish(Map.of("traceparent", TRACEPARENT, "tracestate", TRACESTATE, "tenant", "acme"));

        ParkingLot parkingLot = ParkingLot.of(connection, orders);
        await().atMost(Patience.WAIT).until(() -> parkingLot.count() == 1);
        assertThat(seen).extracting(Seen::attempt).containsExactly(1, 2, 3, 4);
        assertThat(seen).allSatisfy(each -> assertThat(each).extracting(Seen::traceparent, Seen::tracestate)
                .containsExactly(TRACEPARENT, TRACESTATE));
        ParkedMessage parked = parkingLot.list(10).get(0);
        assertThat(parked.properties().headers())
                .extractingByKeys("traceparent", "tracestate")
                .map(String::valueOf).containsExactly(TRACEPARENT, TRACESTATE);

        failing.stop(Duration.ofSeconds(5));
        seen.clear();
        consume(context -> seen.add(seen(context)), null);
        parkingLot.replay(ReplayFilter.all(), 10, false);

        await().atMost(Patience.WAIT).until(() -> seen.size() == 1);
        assertThat(seen.get(0)).isEqualTo(new Seen(1, TRACEPARENT, TRACESTATE));
    }

    @Test
    void eachAttemptIsAConsumerSpanOfThePublishersTraceWithItsAttemptTierAndOutcome() throws Exception {
        Tracer tracer = openTelemetry.getTracer("test");
        List<String> failedOnce = new CopyOnWriteArrayList<>();
        consume(context -> {
            String body = new String(context.body(), StandardCharsets.UTF_8);
            tracer.spanBuilder("handler work").startSpan().end();
            if (body.equals("broken") || !failedOnce.contains(body)) {
                failedOnce.add(body);
                throw new IllegalStateException(body + " failed");
            }
        }, OpenTelemetryTracing.of(openTelemetry));

        Span flakyPublish = publishInSpan(tracer, "flaky");
        Span brokenPublish = publishInSpan(tracer, "broken");

        await().atMost(Patience.WAIT).until(() -> ParkingLot.of(connection, orders).count() == 1
                && consumerSpans(flakyPublish).size() == 2);
        List<SpanData> flaky = consumerSpans(flakyPublish);
        assertThat(flaky).extracting(OpenTelemetryTracingIT::attempt).containsExactly(1L, 2L);
        assertThat(flaky).extracting(span -> span.getAttributes().get(AttributeKey.stringKey("retry.outcome")))
                .containsExactly("retry", "success");
        assertThat(flaky.get(0).getAttributes().get(AttributeKey.longKey("retry.tier"))).isEqualTo(1L);
        assertThat(flaky.get(0).getAttributes().get(AttributeKey.stringKey("retry.tier.queue")))
                .isEqualTo(orders.tier(1).queue());
        assertThat(flaky.get(0).getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(flaky.get(0).getEvents()).extracting(event -> event.getName()).contains("exception");
        assertThat(flaky.get(1).getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        SpanData first = flaky.get(0);
        assertThat(first.getName()).isEqualTo("process test.events");
        assertThat(first.getKind()).isEqualTo(SpanKind.CONSUMER);
        assertThat(first.getAttributes().asMap()).containsAllEntriesOf(Map.of(
                AttributeKey.stringKey("messaging.system"), "rabbitmq",
                AttributeKey.stringKey("messaging.operation.type"), "process",
                AttributeKey.stringKey("messaging.destination.name"), "test.events",
                AttributeKey.stringKey("messaging.rabbitmq.destination.routing_key"), "order.created",
                AttributeKey.stringKey("messaging.destination.subscription.name"), orders.queue(),
                AttributeKey.stringKey("retry.service"), "orders",
                AttributeKey.stringKey("retry.route"), "order.created",
                AttributeKey.longKey("retry.max_attempts"), 4L,
                AttributeKey.stringKey("error.type"), IllegalStateException.class.getName()));
        assertThat(spans.getFinishedSpanItems()).filteredOn(span -> span.getName().equals("handler work"))
                .filteredOn(span -> flaky.stream().anyMatch(attempt -> attempt.getSpanId().equals(span.getParentSpanId())))
                .as("the handler's own spans are children of its attempt's").hasSize(2);

        List<SpanData> broken = consumerSpans(brokenPublish);
        assertThat(broken).extracting(OpenTelemetryTracingIT::attempt).containsExactly(1L, 2L, 3L, 4L);
        assertThat(broken).extracting(span -> span.getAttributes().get(AttributeKey.stringKey("retry.outcome")))
                .containsExactly("retry", "retry", "retry", "park");
        assertThat(broken.get(3).getAttributes().get(AttributeKey.stringKey("retry.park.reason")))
                .isEqualTo("attempts-exhausted");
    }

    private RetryingConsumer consume(MessageHandler handler, OpenTelemetryTracing tracing) throws Exception {
        RetryingConsumer.Builder builder = RetryingConsumer.builder(connection, Routes.builder(orders)
                .on("order.created", handler)
                .on("order.*.paid", String.class, (payload, context) -> handler.handle(context))
                .build());
        if (tracing != null) {
            builder.observer(tracing);
        }
        RetryingConsumer consumer = builder.start();
        consumers.add(consumer);
        return consumer;
    }

    private static Seen seen(DeliveryContext context) {
        Map<String, Object> headers = context.properties().getHeaders();
        return new Seen(context.attempt(), String.valueOf(headers.get("traceparent")),
                String.valueOf(headers.get("tracestate")));
    }

    /** Publishes the body inside a producer span whose context goes with it, as an instrumented publisher would. */
    private Span publishInSpan(Tracer tracer, String body) throws Exception {
        Span span = tracer.spanBuilder("publish").setSpanKind(SpanKind.PRODUCER).startSpan();
        try (Scope ignored = span.makeCurrent()) {
            Map<String, Object> headers = new HashMap<>();
            openTelemetry.getPropagators().getTextMapPropagator()
                    .inject(Context.current(), headers, (carrier, key, value) -> carrier.put(key, value));
            publish(headers, body);
        } finally {
            span.end();
        }
        return span;
    }

    private void publish(Map<String, Object> headers) throws Exception {
        publish(headers, "hello");
    }

    private void publish(Map<String, Object> headers, String body) throws Exception {
        channel.basicPublish("test.events", "order.created", true,
                new AMQP.BasicProperties.Builder().headers(headers).build(), body.getBytes(StandardCharsets.UTF_8));
        channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
    }

    /** The consumer spans whose parent is this publisher's span, by attempt. */
    private List<SpanData> consumerSpans(Span publisher) {
        return spans.getFinishedSpanItems().stream()
                .filter(span -> span.getKind() == SpanKind.CONSUMER)
                .filter(span -> span.getTraceId().equals(publisher.getSpanContext().getTraceId()))
                .filter(span -> span.getParentSpanId().equals(publisher.getSpanContext().getSpanId()))
                .sorted((a, b) -> Long.compare(attempt(a), attempt(b)))
                .toList();
    }

    private static long attempt(SpanData span) {
        return span.getAttributes().get(AttributeKey.longKey("retry.attempt"));
    }
}
