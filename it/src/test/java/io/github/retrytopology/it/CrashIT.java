package io.github.retrytopology.it;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import io.github.retrytopology.it.scenarios.InvoicingHandler;
import io.github.retrytopology.it.scenarios.RetryTopology;
import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.consumer.DeliveryContext;
import io.github.retrytopology.runtime.consumer.RetryListener;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.parkinglot.ParkedMessage;
import io.github.retrytopology.runtime.parkinglot.ParkingLot;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Consumers that die while they handle a message lose nothing, and a message that kills them ends parked. */
class CrashIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private final Topology topology = Topology.of(RetryTopology.SPEC.inVhost(broker.name()));
    private Connection connection;
    private Channel channel;

    @BeforeEach
    void importDefinitions() throws Exception {
        Scenarios.importDefinitions(broker, RetryTopology.class, RetryTopology.VHOST_DEFINITIONS);
        connection = broker.connect("crash");
        channel = connection.createChannel();
        channel.confirmSelect();
    }

    @AfterEach
    void delete() throws Exception {
        connection.close();
        broker.deleteQueues(topology);
    }

    @Test
    void aMessageWhoseConsumerIsKilledMidwayIsDeliveredAgain() throws Exception {
        Connection doomed = broker.connect("doomed");
        CountDownLatch handling = new CountDownLatch(1);
        RetryingConsumer dying = RetryingConsumer.builder(doomed, InvoicingHandler.routes(context -> {
            handling.countDown();
            new CountDownLatch(1).await();
        })).start();
        Scenarios.publish(channel, RetryTopology.EXCHANGE, "order.placed", "order-9");
        assertThat(handling.await(Patience.WAIT_SECONDS, SECONDS)).isTrue();

        doomed.abort();
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        List<Integer> redeliveries = new CopyOnWriteArrayList<>();
        RetryingConsumer survivor = RetryingConsumer.builder(connection,
                InvoicingHandler.routes(context -> attempts.add(context.attempt())))
                .listener(new RetryListener() {
                    @Override
                    public void onRedelivery(DeliveryContext context, int deliveryCount) {
                        redeliveries.add(deliveryCount);
                    }
                })
                .start();

        await().atMost(Patience.WAIT).until(() -> attempts.size() == 1);
        assertThat(survivor.stop(Duration.ofSeconds(5))).isTrue();
        dying.stop(Duration.ofMillis(100));
        assertThat(attempts).containsExactly(1);
        assertThat(redeliveries).containsExactly(1);
        Scenarios.assertQueues(channel, topology, Map.of(RetryTopology.Orders.QUEUE, 1));
    }

    @Test
    void aMessageThatCrashesItsConsumerOnEveryDeliveryIsParkedByTheDeliveryLimit() throws Exception {
        Scenarios.publish(channel, RetryTopology.EXCHANGE, "crash.event", "poison");
        String uri = broker.broker().amqpUri(broker.name());

        int crashes = 0;
        while (channel.messageCount(RetryTopology.Crashing.PARKING_LOT) == 0) {
            assertThat(crashes).as("crashes before the broker parks it").isLessThan(RetryTopology.Crashing.MAX_ATTEMPTS);
            assertThat(runConsumerProcess(uri)).as("the consumer process crashed").isEqualTo(CrashingConsumer.CRASHED);
            crashes++;
            awaitRequeuedOrParked();
        }

        assertThat(crashes).isEqualTo(RetryTopology.Crashing.MAX_ATTEMPTS);
        List<ParkedMessage> parked = ParkingLot.of(connection, RetryTopology.CRASHING).list(10);
        assertThat(parked).singleElement().satisfies(message -> {
            assertThat(message.reason()).hasValue(ParkReason.DELIVERY_LIMIT);
            assertThat(message.routingKey()).hasValue("crash.event");
            assertThat(message.detail()).contains("the broker dead-lettered it from crashing", "delivery_limit",
                    "more deliveries than the queue's delivery limit ended without an acknowledgement");
        });
    }

    /**
     * RabbitMQ 4 gives a quorum queue a delivery limit of 20 where nothing sets one; the service's policy sets its
     * own, higher, and it is the one that applies: a message that crashes its consumer on every delivery still has
     * every one of its attempts. Each reject counts toward the limit on every version, as a crash does.
     */
    @Test
    void aServiceWithMoreAttemptsThanRabbitMqsDefaultDeliveryLimitKeepsThemAll() throws Exception {
        assertThat(RetryTopology.Patient.MAX_ATTEMPTS).isGreaterThan(21);
        Scenarios.publish(channel, RetryTopology.EXCHANGE, "patient.event", "patient");

        int failed = 0;
        while (channel.messageCount(RetryTopology.Patient.PARKING_LOT) == 0) {
            assertThat(failed).as("failed deliveries before the broker parks it")
                    .isLessThan(RetryTopology.Patient.MAX_ATTEMPTS);
            GetResponse delivery = channel.basicGet(RetryTopology.Patient.QUEUE, false);
            assertThat(delivery).as("the message, back in its queue after %d failed deliveries", failed).isNotNull();
            channel.basicReject(delivery.getEnvelope().getDeliveryTag(), true);
            failed++;
            await().atMost(Patience.WAIT).until(() -> channel.messageCount(RetryTopology.Patient.QUEUE)
                    + channel.messageCount(RetryTopology.Patient.PARKING_LOT) == 1);
        }

        assertThat(failed).isEqualTo(RetryTopology.Patient.MAX_ATTEMPTS);
    }

    /** Runs the crashing consumer in a JVM of its own, and returns how it ended. */    /** Runs the crashing consumer in a JVM of its own, and returns how it ended. */
    private static int runConsumerProcess(String uri) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                CrashingConsumer.class.getName(), uri)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the consumer process neither crashed nor ended within a minute");
        }
        return process.exitValue();
    }

    /** Waits until the broker has put the message back in the queue or in the parking lot. */
    private void awaitRequeuedOrParked() {
        await().atMost(Patience.WAIT).until(() -> channel.messageCount(RetryTopology.Crashing.QUEUE)
                + channel.messageCount(RetryTopology.Crashing.PARKING_LOT) == 1);
    }
}
