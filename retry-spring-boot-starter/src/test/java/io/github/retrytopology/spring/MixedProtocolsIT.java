package io.github.retrytopology.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.retrytopology.model.topology.BrokerVersion;
import io.github.retrytopology.runtime.consumer.Amqp10RetryingConsumer;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestManagement;
import io.github.retrytopology.runtime.testing.TestVhost;
import io.github.retrytopology.spring.amqp10.RetryTopology;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One application, two protocols, on RabbitMQ 4.3.1 and later (skipped before): service orders (retry.yml) over
 * AMQP 0.9.1 with its tier queues, and service payments ({@code protocol: amqp-1.0}) over AMQP 1.0, each with its
 * own consumer type, retries and attempts; on shutdown both stop, and both connections close.
 */
class MixedProtocolsIT {

    @RegisterExtension
    static final TestVhost vhost = new TestVhost();

    @Test
    void consumesEachServiceOverItsOwnProtocolAndClosesBothConnectionsOnShutdown() throws Exception {
        BrokerVersion version = vhost.broker().version();
        assumeTrue(version.atLeast(BrokerVersion.DELAYED_RETRY), "RabbitMQ " + version + " does not hold a retry "
                + "until its delivery time");
        List<String> properties = new ArrayList<>(TestApplication.brokerProperties(vhost));
        properties.add("retry.services.orders.consumers=2");
        Orders orders;
        Payments payments;
        RetryConsumers consumers;
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(TestApplication.class,
                Orders.class, Payments.class)
                .resourceLoader(Amqp10Spec.resourceLoader())
                .properties(properties.toArray(String[]::new))
                .run()) {
            orders = context.getBean(Orders.class);
            payments = context.getBean(Payments.class);
            consumers = context.getBean(RetryConsumers.class);
            assertThat(consumers.services()).extracting(service -> service.name())
                    .containsExactlyInAnyOrder("orders", "payments");
            assertThat(consumers.consumer(io.github.retrytopology.spring.example.RetryTopology.ORDERS))
                    .isInstanceOf(RetryingConsumer.class);
            assertThat(consumers.consumer(RetryTopology.PAYMENTS)).isInstanceOf(Amqp10RetryingConsumer.class);
            await().atMost(Patience.WAIT).untilAsserted(() -> assertThat(connectionProtocols())
                    .as("one connection per protocol").containsExactlyInAnyOrder("AMQP 0-9-1", "AMQP 1-0"));

            publish(io.github.retrytopology.spring.example.RetryTopology.EXCHANGE, "order.cancelled", "fail-once-1");
            publish(RetryTopology.EXCHANGE, "payment.captured", "fail-twice-1");

            await().atMost(Patience.WAIT).until(() -> orders.done.contains("fail-once-1")
                    && payments.done.contains("fail-twice-1"));
            assertThat(orders.attempts.get("fail-once-1")).containsExactly(1, 2);
            assertThat(payments.attempts.get("fail-twice-1")).containsExactly(1, 2, 3);
            HealthIndicator indicator = context.getBean("retryHealthIndicator", HealthIndicator.class);
            await().atMost(Patience.WAIT).untilAsserted(() -> {
                Health report = indicator.health(true);
                assertThat(report.getStatus()).isEqualTo(Status.UP);
                assertThat(protocols(report)).containsEntry("orders", "amqp-0.9.1")
                        .containsEntry("payments", "amqp-1.0");
            });
        }

        assertThat(consumers.isRunning()).isFalse();
        assertThat(consumers.isConnected()).isFalse();
        await().atMost(Patience.WAIT).untilAsserted(() -> assertThat(connectionProtocols()).isEmpty());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> protocols(Health report) {
        Map<String, Object> protocols = new TreeMap<>();
        ((Map<String, Map<String, Object>>) report.getDetails().get("services"))
                .forEach((name, details) -> protocols.put(name, details.get("protocol")));
        return protocols;
    }

    /** The protocols of the connections to the test's virtual host, as the management API lists them. */
    private static List<String> connectionProtocols() throws Exception {
        List<String> protocols = new ArrayList<>();
        JsonNode connections = JsonMapper.builder().build().readTree(vhost.management().get("api/vhosts/"
                + TestManagement.encode(vhost.name()) + "/connections?disable_stats=true"));
        connections.forEach(connection -> protocols.add(connection.path("protocol").asString()));
        return protocols;
    }

    private static void publish(String exchange, String routingKey, String body) throws Exception {
        try (Connection connection = vhost.connect("publisher")) {
            Channel channel = connection.createChannel();
            channel.confirmSelect();
            channel.basicPublish(exchange, routingKey, true, new AMQP.BasicProperties.Builder()
                    .contentType("text/plain").deliveryMode(2).build(), body.getBytes(StandardCharsets.UTF_8));
            channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
        }
    }
}
