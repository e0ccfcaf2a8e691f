package io.github.retrytopology.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.retrytopology.it.after.ResizerHandler;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.testing.BrokerTopology;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Changing a tier's delay in retry.yml and importing the regenerated definitions over the old ones changes how
 * the broker behaves, through the policies, without deleting a queue or the messages in it.
 */
class DelayChangeIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    @Test
    void reimportingAChangedDelayChangesThePolicyAndKeepsTheQueues() throws Exception {
        Scenarios.importDefinitions(broker, io.github.retrytopology.it.before.RetryTopology.class,
                io.github.retrytopology.it.before.RetryTopology.VHOST_DEFINITIONS);
        Connection connection = broker.connect("delay-change");
        Channel channel = connection.createChannel();
        channel.confirmSelect();
        String parkingLot = io.github.retrytopology.it.after.RetryTopology.Resizer.PARKING_LOT;
        channel.basicPublish("", parkingLot, null, "parked before the change".getBytes(StandardCharsets.UTF_8));
        channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());

        Scenarios.importDefinitions(broker, io.github.retrytopology.it.after.RetryTopology.class,
                io.github.retrytopology.it.after.RetryTopology.VHOST_DEFINITIONS);

        BrokerTopology.assertHolds(broker.management(),
                Topology.of(io.github.retrytopology.it.after.RetryTopology.SPEC.inVhost(broker.name())));
        assertThat(ttl(io.github.retrytopology.it.after.RetryTopology.Resizer.RETRY_1)).isEqualTo(300);
        assertThat(channel.messageCount(parkingLot)).as("the queue and its message survived").isEqualTo(1);

        List<Instant> deliveries = new CopyOnWriteArrayList<>();
        RetryingConsumer consumer = RetryingConsumer.builder(connection, ResizerHandler.routes(context -> {
            deliveries.add(Instant.now());
            if (context.attempt() == 1) {
                throw new IllegalStateException("first attempt fails");
            }
        })).start();
        Scenarios.publish(channel, io.github.retrytopology.it.after.RetryTopology.EXCHANGE, "image.uploaded", "photo-1");

        await().atMost(Patience.WAIT).until(() -> deliveries.size() == 2);
        consumer.stop(Duration.ofSeconds(5));
        Duration retryDelay = Duration.between(deliveries.get(0), deliveries.get(1));
        assertThat(retryDelay).as("the retry waited the new 300ms, not the old 5s")
                .isBetween(Duration.ofMillis(300), Duration.ofMillis(1_800));
        connection.close();
    }

    private static int ttl(String queue) throws Exception {
        JsonNode definitions = new ObjectMapper().readTree(broker.management().exportDefinitions(broker.name()));
        for (JsonNode policy : definitions.path("policies")) {
            if (policy.path("name").asText().equals(queue)) {
                return policy.path("definition").path("message-ttl").asInt();
            }
        }
        throw new AssertionError("no policy for " + queue);
    }
}
