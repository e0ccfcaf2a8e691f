package io.github.retrytopology.runtime.consumer;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.amqp091.Received;
import io.github.retrytopology.runtime.headers.RetryHeaders;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A message that a migration moved from a team's old retry topology into the service's queue, through the default
 * exchange, with the attempts it made there in {@value RetryHeaders#ATTEMPTS} and the old queue in
 * {@value RetryHeaders#ADOPTED_FROM}: its attempts count.
 */
class AdoptedMessagesIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private static final RetrySpec SPEC = Specs.parse("""
            version: 1
            package: com.acme.adopted
            exchange: adopted.events
            defaults:
              maxAttempts: 3
              delays: [200ms, 400ms]
            services:
              orders:
                routingKeys: [order.created]
            """.getBytes(StandardCharsets.UTF_8), "adopted.yml");

    private final BlockingQueue<Integer> attempts = new LinkedBlockingQueue<>();
    private final RecordingListener events = new RecordingListener();
    private Service orders;
    private Topology topology;
    private Connection connection;
    private RetryingConsumer consumer;

    @BeforeEach
    void declare() throws Exception {
        topology = broker.declare(SPEC);
        orders = SPEC.service("orders");
        connection = broker.connect("adopted-messages-it");
    }

    @AfterEach
    void stopAndDelete() throws Exception {
        if (consumer != null) {
            consumer.stop(Duration.ofSeconds(5));
        }
        connection.close();
        broker.deleteQueues(topology);
    }

    @Test
    void aMovedMessageIsDeliveredAsTheAttemptAfterThoseItMadeAndParkedWhenItWasTheLast() throws Exception {
        consumer = RetryingConsumer.builder(connection, Routes.builder(orders).on("order.created", context -> {
            attempts.add(context.attempt());
            throw new IllegalStateException("still failing on attempt " + context.attempt());
        }).build()).listener(events).start();

        moveIn(Map.of(RetryHeaders.ATTEMPTS, 2, RetryHeaders.ADOPTED_FROM, "orders.wait",
                RetryHeaders.ORIGINAL_EXCHANGE, "adopted.events", RetryHeaders.ORIGINAL_ROUTING_KEY, "order.created"));

        assertThat(attempts.poll(Patience.WAIT_SECONDS, SECONDS)).isEqualTo(3);
        await().atMost(Patience.WAIT).until(() -> events.parks.size() == 1);
        assertThat(events.parks.get(0).reason()).isEqualTo(ParkReason.ATTEMPTS_EXHAUSTED);
        assertThat(events.retries).as("its last attempt is not retried").isEmpty();
        assertThat(attempts).isEmpty();
        try (Channel channel = connection.createChannel()) {
            GetResponse parked = channel.basicGet(orders.parkingLot(), true);
            RetryHeaders headers = RetryHeaders.of(Received.headers(parked.getProps().getHeaders()));
            assertThat(headers.attempts()).isEqualTo(3);
            assertThat(headers.adoptedFrom()).hasValue("orders.wait");
            assertThat(headers.originalRoutingKey()).hasValue("order.created");
        }
    }

    @Test
    void theSameHeadersPublishedThroughTheExchangeMakeAFirstAttempt() throws Exception {
        consumer = RetryingConsumer.builder(connection, Routes.builder(orders).on("order.created", context -> {
            attempts.add(context.attempt());
        }).build()).listener(events).start();

        try (Channel channel = connection.createChannel()) {
            channel.confirmSelect();
            channel.basicPublish("adopted.events", "order.created", true, properties(Map.of(RetryHeaders.ATTEMPTS, 2,
                    RetryHeaders.ADOPTED_FROM, "orders.wait")), "copied".getBytes(StandardCharsets.UTF_8));
            channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
        }

        assertThat(attempts.poll(Patience.WAIT_SECONDS, SECONDS)).isEqualTo(1);
        await().atMost(Patience.WAIT).until(() -> events.successes.get() == 1);
    }

    /** Publishes to the service's queue through the default exchange, as a migration does. */
    private void moveIn(Map<String, Object> headers) throws Exception {
        try (Channel channel = connection.createChannel()) {
            channel.confirmSelect();
            channel.basicPublish("", orders.queue(), true, properties(headers),
                    "moved".getBytes(StandardCharsets.UTF_8));
            channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
        }
    }

    private static AMQP.BasicProperties properties(Map<String, Object> headers) {
        return new AMQP.BasicProperties.Builder().contentType("text/plain").deliveryMode(2).headers(headers).build();
    }
}
