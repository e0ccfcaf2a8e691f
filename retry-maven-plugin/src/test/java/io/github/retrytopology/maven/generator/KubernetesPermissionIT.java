package io.github.retrytopology.maven.generator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.github.retrytopology.maven.generator.KubernetesOutput.ClusterReference;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.consumer.Routes;
import io.github.retrytopology.runtime.testing.TestManagement;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The rights the generated Permission resource gives the consumers' user, granted on a real RabbitMQ to a user of
 * their own, as the operator would grant them: the runtime's consumer retries and parks with them, and they allow
 * it nothing else (no declaration, no reading of the parking lot).
 */
class KubernetesPermissionIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private static final String PASSWORD = "permission-it";

    @Test
    void theConsumersUserRetriesAndParksWithTheRightsOfItsPermissionAndNoMore() throws Exception {
        String user = broker.name() + "-consumer";
        String text = """
                version: 1
                package: com.acme.permission
                vhost: %s
                exchange: permission.events
                defaults:
                  maxAttempts: 2
                  delays: [200ms]
                services:
                  orders:
                    routingKeys: [order.created]
                """.formatted(broker.name());
        RetrySpec spec = Specs.parse(text.getBytes(StandardCharsets.UTF_8), "retry.yml");
        KubernetesOutput output = new KubernetesOutput(new ClusterReference(Optional.of("rabbitmq"), Optional.empty(),
                Optional.empty()), "", Optional.empty(), Map.of(), "retain", false, Optional.of(user));
        JsonNode rights = KubernetesResourcesTest.documents(KubernetesResourcesTest.kubernetesYaml(text, "retry.yml",
                output)).stream().filter(document -> document.path("kind").asText().equals("Permission"))
                .findFirst().orElseThrow().path("spec").path("permissions");
        TestManagement management = broker.management();
        broker.declare(spec);
        management.put("api/users/" + TestManagement.encode(user), "{\"password\": \"" + PASSWORD + "\", \"tags\": \"\"}");
        try {
            management.put("api/permissions/" + TestManagement.encode(broker.name()) + "/" + TestManagement.encode(user),
                    rights.toString());
            Service orders = spec.service("orders");
            BlockingQueue<Integer> attempts = new LinkedBlockingQueue<>();
            try (Connection connection = connect(user)) {
                RetryingConsumer consumer = RetryingConsumer.builder(connection, Routes.builder(orders)
                        .on("order.created", context -> {
                            attempts.add(context.attempt());
                            throw new IllegalStateException("fails on attempt " + context.attempt());
                        }).build()).start();
                try {
                    publish(spec);

                    assertThat(List.of(attempts.poll(10, TimeUnit.SECONDS), attempts.poll(10, TimeUnit.SECONDS)))
                            .as("the first attempt, then the retry through its tier queue").containsExactly(1, 2);
                    try (Connection admin = broker.connect("permission-it-admin"); Channel channel = admin.createChannel()) {
                        await().atMost(Duration.ofSeconds(10))
                                .until(() -> channel.messageCount(orders.parkingLot()) == 1);
                    }
                } finally {
                    consumer.stop(Duration.ofSeconds(5));
                }

                assertThatThrownBy(() -> connection.createChannel().queueDeclare("elsewhere", true, false, false, null))
                        .hasStackTraceContaining("ACCESS_REFUSED");
                assertThatThrownBy(() -> connection.createChannel().basicGet(orders.parkingLot(), false))
                        .hasStackTraceContaining("ACCESS_REFUSED");
            }
        } finally {
            management.delete("api/users/" + TestManagement.encode(user));
        }
    }

    private static Connection connect(String user) throws Exception {
        ConnectionFactory factory = broker.connectionFactory();
        factory.setUsername(user);
        factory.setPassword(PASSWORD);
        return factory.newConnection("permission-it");
    }

    private static void publish(RetrySpec spec) throws IOException, InterruptedException, TimeoutException {
        try (Connection admin = broker.connect("permission-it-publisher"); Channel channel = admin.createChannel()) {
            channel.confirmSelect();
            channel.basicPublish(spec.exchange(), "order.created", true, null, "created".getBytes(StandardCharsets.UTF_8));
            channel.waitForConfirmsOrDie(10_000);
        }
    }
}
