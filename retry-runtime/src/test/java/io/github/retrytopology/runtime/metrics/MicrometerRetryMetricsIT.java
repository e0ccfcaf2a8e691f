package io.github.retrytopology.runtime.metrics;

import static java.util.concurrent.TimeUnit.SECONDS;
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
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The meters a real run leaves in a registry: successes, each tier's retries, parks by reason, and timings. */
class MicrometerRetryMetricsIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private Service orders;
    private Topology topology;
    private Connection connection;
    private RetryingConsumer consumer;

    @BeforeEach
    void start() throws Exception {
        RetrySpec spec = Specs.load(Path.of("src/test/resources/specs/fast-retries.yml"));
        orders = spec.service("orders");
        topology = broker.declare(spec);
        connection = broker.connect("metrics-it");
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
    void countsEachOutcomeByRouteTierAndParkReasonAndTimesHandlersAndRepublishes() throws Exception {
        Set<String> failedOnce = ConcurrentHashMap.newKeySet();
        Routes routes = Routes.builder(orders)
                .on("order.created", context -> {
                    String body = new String(context.body(), StandardCharsets.UTF_8);
                    switch (body) {
                        case "flaky" -> {
                            if (failedOnce.add(body)) {
                                throw new IllegalStateException("once");
                            }
                        }
                        case "broken" -> throw new IllegalStateException("always");
                        case "invalid" -> throw new IllegalArgumentException("never worth a retry");
                        default -> { }
                    }
                })
                .on("order.*.paid", String.class, (payload, context) -> { })
                .build();
        MicrometerRetryMetrics metrics = MicrometerRetryMetrics.of(registry);
        consumer = RetryingConsumer.builder(connection, routes).consumers(2).listener(metrics).observer(metrics).start();
        metrics.watch(consumer);

        try (Channel channel = connection.createChannel()) {
            channel.confirmSelect();
            for (String body : new String[] {"ok", "ok", "ok", "flaky", "broken", "invalid"}) {
                publish(channel, "order.created", body);
            }
            publish(channel, "order.7.paid", "\"paid\"");
            publish(channel, "order.7.paid", "\"paid\"");
            channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
        }

        await().atMost(Patience.WAIT).until(() -> total("retry.messages") == 6 + 4 + 2);
        assertThat(counts("retry.messages", "retry.outcome", "retry.route", "retry.tier", "retry.park.reason"))
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "success order.created none none", 4.0,
                        "success order.*.paid none none", 2.0,
                        "retry order.created 1 none", 2.0,
                        "retry order.created 2 none", 1.0,
                        "retry order.created 3 none", 1.0,
                        "park order.created none attempts-exhausted", 1.0,
                        "park order.created none non-retryable", 1.0));
        assertThat(registry.get("messaging.process.duration").timers())
                .allSatisfy(timer -> assertThat(timer.getId().getTag("messaging.destination.name"))
                        .isEqualTo("test.events"))
                .allSatisfy(timer -> assertThat(timer.getId().getTag("retry.service")).isEqualTo("orders"))
                .allSatisfy(timer -> assertThat(timer.getId().getTag("messaging.system")).isEqualTo("rabbitmq"));
        assertThat(registry.get("messaging.process.duration").timers().stream().mapToLong(t -> t.count()).sum())
                .as("handler runs: 3 ok, 2 flaky, 4 broken, 1 invalid, 2 paid").isEqualTo(12);
        assertThat(registry.get("messaging.process.duration")
                .tags("retry.outcome", "retry", "error.type", IllegalStateException.class.getName()).timer().count())
                .as("flaky once, broken three times").isEqualTo(4);
        assertThat(registry.get("retry.republish.duration").timers().stream()
                .collect(Collectors.toMap(timer -> timer.getId().getTag("retry.destination"), Timer::count)))
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        orders.tier(1).queue(), 2L,
                        orders.tier(2).queue(), 1L,
                        orders.tier(3).queue(), 1L,
                        orders.parkingLot(), 2L));
        assertThat(registry.get("retry.republish.duration").timers())
                .allSatisfy(timer -> assertThat(timer.totalTime(SECONDS)).isPositive());
        await().atMost(Patience.WAIT).until(() -> registry.get("retry.consumers.running").gauge().value() == 2.0);

        consumer.stop(Duration.ofSeconds(5));
        assertThat(registry.get("retry.consumers.running").gauge().value()).isZero();
    }

    @Test
    void watchesTheConsumerThatTookTheStoppedOnesPlace() throws Exception {
        Routes routes = Routes.builder(orders)
                .on("order.created", context -> { })
                .on("order.*.paid", String.class, (payload, context) -> { })
                .build();
        MicrometerRetryMetrics metrics = MicrometerRetryMetrics.of(registry);
        RetryingConsumer first = RetryingConsumer.builder(connection, routes).start();
        metrics.watch(first);
        first.stop(Duration.ofSeconds(5));

        consumer = RetryingConsumer.builder(connection, routes).start();
        metrics.watch(consumer);

        assertThat(registry.find("retry.consumers.running").gauges()).hasSize(1);
        await().atMost(Patience.WAIT).until(() -> registry.get("retry.consumers.running").gauge().value() == 1.0);
    }

    private static void publish(Channel channel, String routingKey, String body) throws Exception {
        channel.basicPublish("test.events", routingKey, true,
                new AMQP.BasicProperties.Builder().contentType("application/json").build(),
                body.getBytes(StandardCharsets.UTF_8));
    }

    private double total(String name) {
        return registry.find(name).counters().stream().mapToDouble(counter -> counter.count()).sum();
    }

    /** Each counter of this name, keyed by these tags' values joined with spaces. */
    private Map<String, Double> counts(String name, String... tags) {
        Map<String, Double> counts = new TreeMap<>();
        registry.find(name).counters().forEach(counter -> counts.put(
                Arrays.stream(tags).map(tag -> counter.getId().getTag(tag)).collect(Collectors.joining(" ")),
                counter.count()));
        return counts;
    }
}
