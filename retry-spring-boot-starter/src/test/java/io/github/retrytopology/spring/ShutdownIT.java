package io.github.retrytopology.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestVhost;
import io.github.retrytopology.spring.example.RetryTopology;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Closing the application while handlers run: the handlers finish, their messages are acknowledged, the rest go
 * back to the queue, and every message is accounted for exactly once.
 */
class ShutdownIT {

    @RegisterExtension
    static final TestVhost vhost = new TestVhost();

    private static final int MESSAGES = 200;

    @Test
    void closingTheContextMidFlightLosesNothingAndHandlesNothingTwice() throws Exception {
        List<String> properties = new ArrayList<>(TestApplication.brokerProperties(vhost));
        properties.addAll(List.of("retry.services.orders.consumers=3", "retry.services.orders.prefetch=10",
                "spring.lifecycle.timeout-per-shutdown-phase=5s"));
        ConfigurableApplicationContext context = new SpringApplicationBuilder(TestApplication.class, Orders.class)
                .properties(properties.toArray(String[]::new))
                .run();
        Orders orders = context.getBean(Orders.class);
        orders.pause = Duration.ofMillis(150);
        List<String> ids = IntStream.range(0, MESSAGES).mapToObj(i -> "order-" + i).toList();
        publish(ids);
        await().atMost(Patience.WAIT).until(() -> orders.done.size() >= 10);

        context.close();

        assertThat(orders.finished.get()).as("every handler that started finished").isEqualTo(orders.started.get());
        Set<String> handled = new HashSet<>(orders.done);
        assertThat(handled).as("handled once each").hasSameSizeAs(orders.done);
        List<String> queued = drain(RetryTopology.Orders.QUEUE);
        assertThat(queued).as("left in the queue").doesNotContainAnyElementsOf(handled);
        assertThat(drain(RetryTopology.Orders.PARKING_LOT)).isEmpty();
        Set<String> all = new HashSet<>(handled);
        all.addAll(queued);
        assertThat(all).as("handled or queued").containsExactlyInAnyOrderElementsOf(ids);
        assertThat(handled.size()).isLessThan(MESSAGES);
    }

    private static void publish(List<String> ids) throws Exception {
        try (Connection connection = vhost.connectionFactory().newConnection("publisher")) {
            Channel channel = connection.createChannel();
            channel.confirmSelect();
            for (String id : ids) {
                channel.basicPublish(RetryTopology.EXCHANGE, "order.cancelled", true,
                        new AMQP.BasicProperties.Builder().deliveryMode(2).build(), id.getBytes(StandardCharsets.UTF_8));
            }
            channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
        }
    }

    private static List<String> drain(String queue) throws Exception {
        List<String> bodies = new ArrayList<>();
        try (Connection connection = vhost.connectionFactory().newConnection("drain")) {
            Channel channel = connection.createChannel();
            for (GetResponse response = channel.basicGet(queue, true); response != null;
                    response = channel.basicGet(queue, true)) {
                bodies.add(new String(response.getBody(), StandardCharsets.UTF_8));
            }
        }
        return bodies;
    }
}
