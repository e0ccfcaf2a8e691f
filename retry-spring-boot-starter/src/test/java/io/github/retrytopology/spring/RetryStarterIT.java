package io.github.retrytopology.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.retrytopology.model.headers.Header;
import io.github.retrytopology.runtime.parkinglot.ParkedMessage;
import io.github.retrytopology.runtime.parkinglot.ParkingLot;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.spring.example.RetryTopology;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The starter in a Boot application against the real broker: the handler bean consumes, with Boot's JSON mapper
 * (configured here to read snake case), retries, and parks; metrics, spans and the health indicator see it.
 */
@ExtendWith(BootVhost.class)
@SpringBootTest(classes = {TestApplication.class, RetryStarterIT.Beans.class}, properties = {
        "spring.jackson.property-naming-strategy=SNAKE_CASE",
        "retry.services.orders.consumers=2",
        "retry.services.orders.prefetch=5",
        "retry.health.parking-lot-threshold=0",
        "retry.health.parking-lot-interval=200ms"})
@DirtiesContext
class RetryStarterIT {

    static final InMemorySpanExporter spans = InMemorySpanExporter.create();

    @DynamicPropertySource
    static void broker(DynamicPropertyRegistry registry) {
        for (String property : TestApplication.brokerProperties(BootVhost.of(RetryStarterIT.class))) {
            String[] parts = property.split("=", 2);
            registry.add(parts[0], () -> parts[1]);
        }
    }

    @TestConfiguration(proxyBeanMethods = false)
    @Import(Orders.class)
    static class Beans {
        @Bean
        OpenTelemetry openTelemetry() {
            return OpenTelemetrySdk.builder()
                    .setTracerProvider(SdkTracerProvider.builder()
                            .addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
                    .build();
        }
    }

    @Autowired
    Orders orders;
    @Autowired
    RetryConsumers consumers;
    @Autowired
    MeterRegistry meters;
    @Autowired
    Map<String, HealthIndicator> health;

    @Test
    void consumesWithBootsJsonMapperAndRetriesUntilTheHandlerSucceeds() throws Exception {
        publish("order.placed", "{\"order_id\":\"ok-1\",\"amount_cents\":1250}");
        publish("order.placed", "{\"order_id\":\"fail-once-1\",\"amount_cents\":990}");
        publish("order.cancelled", "ok-2");

        await().atMost(Patience.WAIT).until(() -> orders.done.containsAll(List.of("ok-1", "fail-once-1",
                "ok-2")));
        assertThat(orders.attempts.get("ok-1")).containsExactly(1);
        assertThat(orders.attempts.get("fail-once-1")).containsExactly(1, 2);
        assertThat(meters.get("retry.messages").tag("retry.outcome", "retry").counter().count()).isGreaterThanOrEqualTo(1);
        // Cautious after its start (see the runtime's Admission), the service may still run one consumer of two.
        assertThat(meters.get("retry.consumers.running").gauge().value())
                .isEqualTo(consumers.consumer(RetryTopology.ORDERS).consumersRunning());
        // A span ends as its handler returns, a moment after the handler has recorded its message.
        await().atMost(Patience.WAIT).untilAsserted(() -> assertThat(spans.getFinishedSpanItems())
                .filteredOn(span -> "orders".equals(span.getAttributes().get(AttributeKey.stringKey("retry.service"))))
                .extracting(span -> span.getAttributes().get(AttributeKey.stringKey("retry.outcome")))
                .as("one span per attempt: ok-1, fail-once-1 twice, ok-2").contains("success", "retry")
                .hasSizeGreaterThanOrEqualTo(4));
    }

    @Test
    void parksAfterTheLastAttemptAndTheHealthIndicatorSaysSo() throws Exception {
        HealthIndicator indicator = health.get("retryHealthIndicator");
        assertThat(indicator.health(true).getStatus()).isEqualTo(Status.UP);

        publish("order.placed", "{\"order_id\":\"fail-always-1\",\"amount_cents\":5}");

        await().atMost(Patience.WAIT).until(() -> parked().size() == 1);
        assertThat(orders.attempts.get("fail-always-1")).containsExactly(1, 2, 3);
        ParkedMessage message = parked().get(0);
        assertThat(message.properties().headers()).containsKey(Header.PARK_REASON.name());
        // The indicator reads the depth again once its interval has passed.
        await().atMost(Patience.WAIT).untilAsserted(() -> {
            var report = indicator.health(true);
            assertThat(report.getStatus()).isEqualTo(Status.DOWN);
            assertThat(report.getDetails().toString()).contains("parked=1", "parkedThreshold=0");
        });
    }

    private List<ParkedMessage> parked() throws Exception {
        try (Connection connection = BootVhost.of(RetryStarterIT.class).connectionFactory().newConnection("parked")) {
            return ParkingLot.of(connection, RetryTopology.ORDERS).list(10);
        }
    }

    private static void publish(String routingKey, String body) throws Exception {
        try (Connection connection = BootVhost.of(RetryStarterIT.class).connectionFactory().newConnection("publisher")) {
            Channel channel = connection.createChannel();
            channel.confirmSelect();
            channel.basicPublish(RetryTopology.EXCHANGE, routingKey, true, new AMQP.BasicProperties.Builder()
                    .contentType("application/json").deliveryMode(2).build(), body.getBytes(StandardCharsets.UTF_8));
            channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
        }
    }
}
