package io.github.retrytopology.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.retrytopology.runtime.testing.Broker;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.PrivateBroker;
import io.github.retrytopology.spring.example.RetryTopology;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.NestedExceptionUtils;

/**
 * A broker that does not answer at start-up: the application starts, reports DOWN, and consumes once the broker
 * answers; with {@code retry.fail-fast} it fails to start, saying where it looked.
 */
@ExtendWith(OutputCaptureExtension.class)
class BrokerAbsentIT {

    @Test
    void startsDownAndConsumesOnceTheBrokerAnswers(CapturedOutput output) throws Exception {
        try (PrivateBroker node = PrivateBroker.start("boot-absent")) {
            Broker broker = node.broker();
            node.stop();

            try (ConfigurableApplicationContext context = start(broker.amqpUri().toString(),
                    "retry.declare-topology=true", "retry.management.url=" + broker.managementUri())) {
                HealthIndicator indicator = context.getBean("retryHealthIndicator", HealthIndicator.class);
                Health down = indicator.health(true);
                assertThat(down.getStatus()).isEqualTo(Status.DOWN);
                assertThat(down.getDetails()).doesNotContainKey("error").containsEntry("connected", false);
                await().atMost(Patience.WAIT).until(() -> output.getOut().contains("try again in 2 s"));

                node.startAgain();

                await().atMost(Patience.WAIT)
                        .until(() -> indicator.health(true).getStatus().equals(Status.UP));
                publish(broker, "order.cancelled", "ok-after-start");
                Orders orders = context.getBean(Orders.class);
                await().atMost(Patience.WAIT).until(() -> orders.done.contains("ok-after-start"));
            }
            assertThat(output.getOut()).contains("could not connect to RabbitMQ at")
                    .doesNotContain("\tat com.rabbitmq");
        }
    }

    @Test
    void failsToStartWhereAskedToFailFast() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }

        Throwable[] thrown = new Throwable[1];
        assertThatThrownBy(() -> start("amqp://guest:guest@127.0.0.1:" + port, "retry.fail-fast=true").close())
                .satisfies(e -> thrown[0] = e);

        Throwable cause = NestedExceptionUtils.getMostSpecificCause(thrown[0]);
        assertThat(cause).isInstanceOf(RetryConfigurationException.class);
        FailureAnalysis analysis = new RetryFailureAnalyzer().analyze(cause);
        assertThat(analysis.getDescription()).contains("could not connect to RabbitMQ at 127.0.0.1:" + port);
        assertThat(analysis.getAction()).contains("retry.fail-fast=false");
    }

    private static ConfigurableApplicationContext start(String addresses, String... properties) {
        return new SpringApplicationBuilder(TestApplication.class, Orders.class)
                .properties("spring.rabbitmq.addresses=" + addresses, "retry.services.audit.enabled=false")
                .properties(properties)
                .run();
    }

    private static void publish(Broker broker, String routingKey, String body) throws Exception {
        try (Connection connection = broker.connectionFactory("/").newConnection("publisher")) {
            Channel channel = connection.createChannel();
            channel.confirmSelect();
            channel.basicPublish(RetryTopology.EXCHANGE, routingKey, true, new AMQP.BasicProperties.Builder()
                    .deliveryMode(2).build(), body.getBytes(StandardCharsets.UTF_8));
            channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
        }
    }
}
