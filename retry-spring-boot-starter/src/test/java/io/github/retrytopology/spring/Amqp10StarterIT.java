package io.github.retrytopology.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.model.headers.Header;
import io.github.retrytopology.model.topology.BrokerVersion;
import io.github.retrytopology.runtime.consumer.Amqp10RetryingConsumer;
import io.github.retrytopology.runtime.parkinglot.ParkedMessage;
import io.github.retrytopology.runtime.parkinglot.ParkingLot;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestManagement;
import io.github.retrytopology.runtime.testing.TestVhost;
import io.github.retrytopology.spring.amqp10.RetryTopology;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
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
 * A service whose spec says {@code protocol: amqp-1.0} in a Boot application, on RabbitMQ 4.3.1 and later (skipped
 * before): the starter consumes it over an AMQP 1.0 connection of its own, the broker holds each retry for its
 * listed delay, and the last failure is parked; metrics, the health indicator and the client's recovery of a lost
 * connection cover it as they cover the AMQP 0.9.1 services.
 */
class Amqp10StarterIT {

    @RegisterExtension
    static final TestVhost vhost = new TestVhost();

    private static ConfigurableApplicationContext context;
    private static Payments payments;
    private static RetryConsumers consumers;
    private static HealthIndicator health;

    /** Started where the broker holds retries; each test is skipped where it does not, and says so. */
    @BeforeAll
    static void startTheApplication() throws IOException {
        if (!vhost.broker().version().atLeast(BrokerVersion.DELAYED_RETRY)) {
            return;
        }
        List<String> properties = new ArrayList<>(TestApplication.brokerProperties(vhost));
        properties.addAll(List.of("retry.services.orders.enabled=false", "retry.services.payments.consumers=2",
                "retry.services.payments.prefetch=5", "retry.health.parking-lot-interval=200ms"));
        context = new SpringApplicationBuilder(TestApplication.class, Payments.class)
                .resourceLoader(Amqp10Spec.resourceLoader())
                .properties(properties.toArray(String[]::new))
                .run();
        payments = context.getBean(Payments.class);
        consumers = context.getBean(RetryConsumers.class);
        health = context.getBean("retryHealthIndicator", HealthIndicator.class);
    }

    @BeforeEach
    void requireDelayedRetry() throws IOException {
        BrokerVersion version = vhost.broker().version();
        assumeTrue(context != null, "RabbitMQ " + version + " does not hold a retry until its delivery time");
    }

    @AfterAll
    static void close() {
        if (context != null) {
            context.close();
        }
    }

    @Test
    void consumesTheServiceOverAmqp10AndReportsItUp() {
        assertThat(consumers.consumer(RetryTopology.PAYMENTS)).isInstanceOf(Amqp10RetryingConsumer.class);
        await().atMost(Patience.WAIT).untilAsserted(() -> {
            Health report = health.health(true);
            assertThat(report.getStatus()).isEqualTo(Status.UP);
            assertThat(report.getDetails()).containsEntry("connected", true);
            assertThat(service(report)).containsEntry("protocol", "amqp-1.0").containsEntry("consumers", 2)
                    .containsEntry("consumersRunning", 2);
        });
        MeterRegistry meters = context.getBean(MeterRegistry.class);
        assertThat(meters.get("retry.consumers.running").tag("retry.service", "payments")
                .tag("network.protocol.version", "1.0").gauge().value()).isEqualTo(2);
    }

    @Test
    void retriesAtTheBrokersDelaysUntilTheHandlerSucceeds() throws Exception {
        publish("fail-twice-1");

        await().atMost(Patience.WAIT).until(() -> payments.done.contains("fail-twice-1"));
        assertThat(payments.attempts.get("fail-twice-1")).containsExactly(1, 2, 3);
        MeterRegistry meters = context.getBean(MeterRegistry.class);
        assertThat(meters.get("retry.messages").tag("retry.service", "payments").tag("retry.outcome", "retry")
                .tag("retry.tier", "broker").counter().count()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void parksAfterTheLastAttempt() throws Exception {
        publish("fail-always-1");

        await().atMost(Patience.WAIT).until(() -> parked().size() == 1);
        assertThat(payments.attempts.get("fail-always-1")).containsExactly(1, 2, 3);
        ParkedMessage message = parked().get(0);
        assertThat(new String(message.body(), StandardCharsets.UTF_8)).isEqualTo("fail-always-1");
        assertThat(message.properties().headers()).containsEntry(Header.PARK_REASON.name(),
                ParkReason.ATTEMPTS_EXHAUSTED.id());
        // No threshold is set: the depth is reported, once the indicator reads it again, and the status stays UP.
        await().atMost(Patience.WAIT).untilAsserted(() -> {
            Health report = health.health(true);
            assertThat(service(report)).containsEntry("parked", 1L);
            assertThat(report.getStatus()).isEqualTo(Status.UP);
        });
    }

    @Test
    void isDownWhileTheAmqp10ConnectionIsLostAndConsumesOnceTheClientRecoversIt() throws Exception {
        await().atMost(Patience.WAIT).until(() -> health.health(true).getStatus().equals(Status.UP));

        // The management API lists a connection a moment after it opens.
        await().atMost(Patience.WAIT).until(() -> closeAmqp10Connections() == 1);

        await().atMost(Patience.WAIT).untilAsserted(() -> {
            Health report = health.health(true);
            assertThat(report.getStatus()).isEqualTo(Status.DOWN);
            assertThat(report.getDetails()).containsEntry("connected", false);
        });
        await().atMost(Patience.WAIT).until(() -> health.health(true).getStatus().equals(Status.UP));
        publish("after-recovery-1");
        await().atMost(Patience.WAIT).until(() -> payments.done.contains("after-recovery-1"));
    }

    /** Closes, from the broker's side, the AMQP 1.0 connections to the test's virtual host; says how many. */
    private static int closeAmqp10Connections() throws IOException {
        int closed = 0;
        JsonNode connections = JsonMapper.builder().build().readTree(vhost.management().get("api/vhosts/"
                + TestManagement.encode(vhost.name()) + "/connections?disable_stats=true"));
        for (JsonNode connection : connections) {
            if (connection.path("protocol").asString().startsWith("AMQP 1")) {
                vhost.management().delete("api/connections/" + TestManagement.encode(connection.path("name")
                        .asString()));
                closed++;
            }
        }
        return closed;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> service(Health report) {
        return ((Map<String, Map<String, Object>>) report.getDetails().get("services")).get("payments");
    }

    private static List<ParkedMessage> parked() throws Exception {
        try (Connection connection = vhost.connect("parked")) {
            return ParkingLot.of(connection, RetryTopology.PAYMENTS).list(10);
        }
    }

    private static void publish(String id) throws Exception {
        try (Connection connection = vhost.connect("publisher")) {
            Channel channel = connection.createChannel();
            channel.confirmSelect();
            channel.basicPublish(RetryTopology.EXCHANGE, "payment.captured", true, new AMQP.BasicProperties.Builder()
                    .contentType("text/plain").deliveryMode(2).build(), id.getBytes(StandardCharsets.UTF_8));
            channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
        }
    }
}
