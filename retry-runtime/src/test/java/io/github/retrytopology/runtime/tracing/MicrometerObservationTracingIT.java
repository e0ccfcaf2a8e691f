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
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.consumer.Routes;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestVhost;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.transport.ReceiverContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The observations {@link MicrometerObservationTracing} makes of each attempt, on a real broker: what a tracer
 * bridged by Micrometer Tracing (Brave's, OpenTelemetry's) reads to make a consumer span of the publisher's trace.
 */
class MicrometerObservationTracingIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private static final String TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    private final ObservationRegistry registry = ObservationRegistry.create();
    private final List<ReceiverContext<?>> stopped = new CopyOnWriteArrayList<>();
    private Service orders;
    private Topology topology;
    private Connection connection;
    private RetryingConsumer consumer;

    @BeforeEach
    void start() throws Exception {
        registry.observationConfig().observationHandler(new ObservationHandler<ReceiverContext<?>>() {
            @Override
            public boolean supportsContext(Observation.Context context) {
                return context instanceof ReceiverContext<?>;
            }

            @Override
            public void onStop(ReceiverContext<?> context) {
                stopped.add(context);
            }
        });
        RetrySpec spec = Specs.load(Path.of("src/test/resources/specs/fast-retries.yml"));
        orders = spec.service("orders");
        topology = broker.declare(spec);
        connection = broker.connect("observation-it");
    }

    @AfterEach
    void stop() throws Exception {
        if (consumer != null) {
            consumer.stop(Duration.ofSeconds(5));
        }
        connection.close();
        broker.deleteQueues(topology);
    }

    @Test
    void eachAttemptIsAReceiverObservationCurrentInItsHandlerWithThePublishersHeadersAsCarrier() throws Exception {
        List<String> current = new CopyOnWriteArrayList<>();
        List<String> failedOnce = new CopyOnWriteArrayList<>();
        consumer = RetryingConsumer.builder(connection, Routes.builder(orders)
                        .on("order.created", context -> {
                            Observation observation = registry.getCurrentObservation();
                            current.add(observation == null ? "none" : observation.getContext().getName());
                            String body = new String(context.body(), StandardCharsets.UTF_8);
                            if (!failedOnce.contains(body)) {
                                failedOnce.add(body);
                                throw new IllegalStateException(body + " failed");
                            }
                        })
                        .on("order.*.paid", String.class, (payload, context) -> { })
                        .build())
                .observer(MicrometerObservationTracing.of(registry))
                .start();

        try (Channel channel = connection.createChannel()) {
            channel.confirmSelect();
            channel.basicPublish("test.events", "order.created", true, new AMQP.BasicProperties.Builder()
                    .headers(Map.of("traceparent", TRACEPARENT)).build(), "flaky".getBytes(StandardCharsets.UTF_8));
            channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
        }

        await().atMost(Patience.WAIT).until(() -> stopped.size() == 2);
        assertThat(current).containsExactly(MicrometerObservationTracing.NAME, MicrometerObservationTracing.NAME);
        ReceiverContext<?> first = stopped.get(0);
        assertThat(first.getName()).isEqualTo("retry.process");
        assertThat(first.getContextualName()).isEqualTo("process test.events");
        assertThat(first.getRemoteServiceName()).isEqualTo("RabbitMQ");
        assertThat(traceparent(first)).isEqualTo(TRACEPARENT);
        assertThat(first.getError()).isInstanceOf(IllegalStateException.class).hasMessage("flaky failed");
        assertThat(keyValues(first)).containsAllEntriesOf(Map.of(
                "messaging.system", "rabbitmq",
                "messaging.destination.name", "test.events",
                "messaging.destination.subscription.name", orders.queue(),
                "retry.service", "orders",
                "retry.route", "order.created",
                "retry.outcome", "retry",
                "retry.tier", "1",
                "retry.attempt", "1",
                "messaging.rabbitmq.destination.routing_key", "order.created"));
        ReceiverContext<?> second = stopped.get(1);
        assertThat(second.getError()).isNull();
        assertThat(traceparent(second)).as("a retry keeps the publisher's headers").isEqualTo(TRACEPARENT);
        assertThat(keyValues(second)).containsEntry("retry.outcome", "success").containsEntry("retry.attempt", "2");
        assertThat(second.getLowCardinalityKeyValues()).as("one set of keys, whatever the outcome, as timers need")
                .extracting(KeyValue::getKey)
                .containsExactlyInAnyOrderElementsOf(first.getLowCardinalityKeyValues().stream()
                        .map(KeyValue::getKey).toList())
                .contains("retry.tier", "retry.park.reason");
    }

    @SuppressWarnings("unchecked")
    private static String traceparent(ReceiverContext<?> context) {
        ReceiverContext<Object> receiver = (ReceiverContext<Object>) context;
        return receiver.getGetter().get(receiver.getCarrier(), "traceparent");
    }

    private static Map<String, String> keyValues(Observation.Context context) {
        return context.getAllKeyValues().stream().collect(Collectors.toMap(KeyValue::getKey, KeyValue::getValue));
    }
}
