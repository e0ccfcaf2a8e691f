package io.github.retrytopology.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.retrytopology.example.OrderPlatform;
import io.github.retrytopology.example.RetryTopology;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The bundled example works as its README says: import the definitions, start the consumers, publish. */
class ExampleIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    @Test
    void theExampleConsumesEveryServicesMessages() throws Exception {
        Scenarios.importDefinitions(broker, RetryTopology.class, RetryTopology.VHOST_DEFINITIONS);
        Connection connection = broker.connect("example");
        Channel channel = connection.createChannel();
        channel.confirmSelect();
        List<RetryingConsumer> consumers = OrderPlatform.start(connection);

        AMQP.BasicProperties json = new AMQP.BasicProperties.Builder().contentType("application/json").messageId("o-1").build();
        Scenarios.publish(channel, RetryTopology.EXCHANGE, "order.completed",
                "{\"orderId\": \"o-1\", \"status\": \"completed\"}".getBytes(StandardCharsets.UTF_8), json);
        Scenarios.publish(channel, RetryTopology.EXCHANGE, "order.created",
                "{\"status\": \"created\"}".getBytes(StandardCharsets.UTF_8), json);

        // Email and finance take theirs; ticketing takes the first and parks the second, which has no order id.
        await().atMost(Patience.WAIT).until(() -> channel.messageCount(RetryTopology.Ticketing.PARKING_LOT) == 1);
        for (RetryingConsumer consumer : consumers) {
            assertThat(consumer.stop(Duration.ofSeconds(5))).isTrue();
        }
        Scenarios.assertQueues(channel, Topology.of(RetryTopology.SPEC), Map.of(RetryTopology.Ticketing.PARKING_LOT, 1));
        connection.close();
    }
}
