package io.github.retrytopology.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.retrytopology.it.scenarios.InvoicingHandler;
import io.github.retrytopology.it.scenarios.RetryTopology;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.topology.BrokerVersion;
import io.github.retrytopology.operations.broker.BrokerAccess;
import io.github.retrytopology.operations.plan.ApplyOptions;
import io.github.retrytopology.operations.plan.TopologyPlanner;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.parkinglot.ParkingLot;
import io.github.retrytopology.runtime.parkinglot.ReplayFilter;
import io.github.retrytopology.runtime.testing.Installation;
import io.github.retrytopology.runtime.testing.LocalNode;
import io.github.retrytopology.runtime.testing.Patience;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * RabbitMQ 4.3 denies by default features it is removing: global QoS, transient non-exclusive queues, the queue
 * master locator. A broker whose operator denies every one of them, on 4.0 too, runs the whole path: apply, consume,
 * retry, park, replay and plan; and afterwards the broker says none of its deprecated features was used.
 */
class DeprecatedFeaturesIT {

    /** The deprecated features that RabbitMQ 4.0 and 4.3 can deny, each denied. */
    private static final List<String> DENIED = List.of(
            "deprecated_features.permit.global_qos = false",
            "deprecated_features.permit.transient_nonexcl_queues = false",
            "deprecated_features.permit.queue_master_locator = false",
            "deprecated_features.permit.classic_queue_mirroring = false");

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theWholePathRunsOnABrokerThatDeniesEveryDeprecatedFeature() throws Exception {
        assumeTrue(Installation.find().orElseThrow().version().atLeast(new BrokerVersion(3, 13, 0)),
                "RabbitMQ before 3.13 has no deprecated features to deny");
        try (LocalNode node = LocalNode.start("strict", "retry-strict-" + UUID.randomUUID(), DENIED)) {
            String vhost = "strict";
            node.broker().management().createVhost(vhost, "guest");
            RetrySpec spec = RetryTopology.SPEC.inVhost(vhost);
            TopologyPlanner planner = TopologyPlanner.of(BrokerAccess.of(
                    List.of(node.broker().managementUri().toString()), List.of(node.broker().amqpUri().toString()),
                    Optional.empty(), Optional.empty()));
            assertThat(planner.apply(spec, new ApplyOptions(true, true), step -> { }).after().inSync()).isTrue();

            Set<String> handled = ConcurrentHashMap.newKeySet();
            Set<String> failing = ConcurrentHashMap.newKeySet();
            failing.add("always");
            try (Connection connection = node.broker().connectionFactory(vhost).newConnection("strict")) {
                RetryingConsumer consumer = RetryingConsumer.builder(connection, InvoicingHandler.routes(context -> {
                    String body = new String(context.body(), StandardCharsets.UTF_8);
                    if (failing.contains(body) || body.equals("once") && context.attempt() == 1) {
                        throw new IllegalStateException("fails " + body);
                    }
                    handled.add(body);
                })).prefetch(5).consumers(2).start();
                Channel channel = connection.createChannel();
                channel.confirmSelect();
                for (String body : List.of("fine", "once", "always")) {
                    Scenarios.publish(channel, RetryTopology.EXCHANGE, "order.placed", body);
                }
                await().atMost(Patience.WAIT).until(() -> handled.containsAll(List.of("fine", "once"))
                        && channel.messageCount(RetryTopology.Invoicing.PARKING_LOT) == 1);
                failing.clear();
                ParkingLot.of(connection, RetryTopology.INVOICING).replay(ReplayFilter.all(), 10, false);
                await().atMost(Patience.WAIT).until(() -> handled.contains("always"));
                assertThat(consumer.stop(Duration.ofSeconds(5))).isTrue();
            }
            assertThat(planner.plan(spec).inSync()).isTrue();

            List<String> used = new ArrayList<>();
            JSON.readTree(node.broker().management().get("api/deprecated-features/used"))
                    .forEach((JsonNode feature) -> used.add(feature.path("name").asText()));
            assertThat(used).as("deprecated features the broker saw used").isEmpty();
        }
    }
}
