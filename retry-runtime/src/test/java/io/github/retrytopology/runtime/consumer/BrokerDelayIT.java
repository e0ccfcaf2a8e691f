package io.github.retrytopology.runtime.consumer;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.decision.Decision;
import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.topology.BrokerVersion;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.amqp091.Received;
import io.github.retrytopology.runtime.headers.RetryHeaders;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A service whose retries the broker delays, on a real broker: on RabbitMQ 4.3.1 and later the whole path, and
 * on an older one the consumer's refusal to start.
 */
class BrokerDelayIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private static RetrySpec spec;
    private static Service orders;

    private final BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
    private final List<Decision.Requeue> requeues = new CopyOnWriteArrayList<>();
    private final RecordingListener events = new RecordingListener();
    private final RetryListener requeued = new RetryListener() {
        @Override
        public void onRequeued(DeliveryContext context, Throwable failure, Decision.Requeue requeue) {
            requeues.add(requeue);
        }
    };
    private Topology topology;
    private Connection connection;
    private Channel channel;
    private RetryingConsumer consumer;

    /** One delivery a handler saw, and when. */
    record Seen(int attempt, long nanos) {
    }

    @BeforeAll
    static void loadSpec() throws IOException {
        spec = Specs.load(Path.of("src/test/resources/specs/broker-retries.yml"));
        orders = spec.service("orders");
    }

    @BeforeEach
    void declare() throws IOException {
        connection = broker.connect("broker-delay-it");
        channel = connection.createChannel();
        channel.confirmSelect();
    }

    @AfterEach
    void stopAndDelete() throws Exception {
        if (consumer != null) {
            consumer.stop(Duration.ofSeconds(5));
        }
        connection.close();
        if (topology != null) {
            broker.deleteQueues(topology);
        }
    }

    @Test
    void retriesThroughTheBrokerAfterItsDelayAndParksTheLastFailureWithItsHeaders() throws Exception {
        requireDelayedRetry();
        start(context -> {
            throw new IllegalStateException("boom on attempt " + context.attempt());
        });

        publish("hello");

        await().atMost(Patience.WAIT).until(() -> events.parks.size() == 1);
        List<Seen> deliveries = List.copyOf(seen);
        assertThat(deliveries).extracting(Seen::attempt).containsExactly(1, 2, 3, 4);
        // The broker waits min × n before retry n: 200, 400 and 600 ms, never less.
        assertThat(gapMillis(deliveries, 0)).isBetween(200L, 1_700L);
        assertThat(gapMillis(deliveries, 1)).isBetween(400L, 1_900L);
        assertThat(gapMillis(deliveries, 2)).isBetween(600L, 2_100L);
        assertThat(requeues).extracting(Decision.Requeue::delay)
                .containsExactly(Duration.ofMillis(200), Duration.ofMillis(400), Duration.ofMillis(600));
        assertThat(events.retries).isEmpty();
        assertThat(events.redeliveries).as("a retry the broker counted is no sign of a crash").isEmpty();
        assertThat(events.parks.get(0).reason()).isEqualTo(ParkReason.ATTEMPTS_EXHAUSTED);

        GetResponse parked = channel.basicGet(orders.parkingLot(), true);
        assertThat(new String(parked.getBody(), StandardCharsets.UTF_8)).isEqualTo("hello");
        RetryHeaders headers = RetryHeaders.of(Received.headers(parked.getProps().getHeaders()));
        assertThat(headers.attempts()).isEqualTo(4);
        assertThat(headers.exceptionMessage()).hasValue("boom on attempt 4");
        assertThat(headers.parkReason()).hasValue(ParkReason.ATTEMPTS_EXHAUSTED);
        // A reject cannot change the message: only the last failure is on record, and the broker's counts are not.
        assertThat(headers.failures()).singleElement().asString().contains("attempt 4", "boom on attempt 4");
        assertThat(headers.deliveryCount()).isZero();
        // The first failure's time is not known, and is not written; the last's is, as the last.
        assertThat(parked.getProps().getHeaders())
                .doesNotContainKeys(RetryHeaders.FIRST_FAILURE, RetryHeaders.FAILURES)
                .containsKey(RetryHeaders.LAST_FAILURE);
        assertThat(headers.firstFailure()).isEmpty();
        assertThat(headers.lastFailure()).isPresent().isEqualTo(headers.parkedAt());
        assertThat(count(orders.queue())).isZero();
    }

    @Test
    void succeedsOnARetryWithTheAttemptTheBrokerCounted() throws Exception {
        requireDelayedRetry();
        start(context -> {
            if (context.attempt() < 3) {
                throw new IllegalStateException("not yet");
            }
            assertThat(context.firstFailure()).as("a reject carries no headers of ours").isEmpty();
        });

        publish("hello");

        await().atMost(Patience.WAIT).until(() -> events.successes.get() == 1);
        assertThat(seen).extracting(Seen::attempt).containsExactly(1, 2, 3);
        assertThat(events.parks).isEmpty();
        assertThat(count(orders.parkingLot())).isZero();
    }

    @Test
    void parksANonRetryableFailureAtOnce() throws Exception {
        requireDelayedRetry();
        start(context -> {
            throw new IllegalArgumentException("bad input");
        });

        publish("hello");

        await().atMost(Patience.WAIT).until(() -> events.parks.size() == 1);
        assertThat(seen).extracting(Seen::attempt).containsExactly(1);
        assertThat(events.parks.get(0).reason()).isEqualTo(ParkReason.NON_RETRYABLE);
        assertThat(requeues).isEmpty();
    }

    @Test
    void countsAConsumerThatCrashedWhileHoldingTheMessageAsAFailedAttempt() throws Exception {
        requireDelayedRetry();
        topology = broker.declare(spec);
        publish("hello");
        // A consumer takes the message and dies without answering it.
        Connection crashing = broker.connect("crashing");
        BlockingQueue<Long> tags = new LinkedBlockingQueue<>();
        crashing.createChannel().basicConsume(orders.queue(), false,
                (tag, delivery) -> tags.add(delivery.getEnvelope().getDeliveryTag()), tag -> { });
        assertThat(tags.poll(Patience.WAIT_SECONDS, SECONDS)).isNotNull();
        crashing.abort();

        startConsuming(context -> { });

        await().atMost(Patience.WAIT).until(() -> events.successes.get() == 1);
        assertThat(seen).extracting(Seen::attempt).containsExactly(2);
    }

    @Test
    void aDelayedRetryAndACrashLookAlikeToTheConsumerSoNeitherIsHeardAsARedelivery() throws Exception {
        requireDelayedRetry();
        topology = broker.declare(spec);
        publish("rejected");
        publish("crashed");
        // One consumer holds both: it rejects one, as the consumer does to retry a failure, and dies holding the other.
        Connection crashing = broker.connect("crashing");
        Channel holder = crashing.createChannel();
        holder.basicQos(2);
        BlockingQueue<Arrival> first = new LinkedBlockingQueue<>();
        String tag = holder.basicConsume(orders.queue(), false, (consumerTag, delivery) -> first.add(Arrival.of(delivery)),
                consumerTag -> { });
        Arrival one = first.poll(Patience.WAIT_SECONDS, SECONDS);
        Arrival two = first.poll(Patience.WAIT_SECONDS, SECONDS);
        assertThat(List.of(one, two)).doesNotContainNull();
        holder.basicCancel(tag);
        holder.basicReject((one.body().equals("rejected") ? one : two).tag(), true);
        holder.queueDeclarePassive(orders.queue()); // a round trip: the reject has been taken
        crashing.abort();

        BlockingQueue<Arrival> again = new LinkedBlockingQueue<>();
        channel.basicConsume(orders.queue(), true, (consumerTag, delivery) -> again.add(Arrival.of(delivery)),
                consumerTag -> { });
        Arrival back = again.poll(Patience.WAIT_SECONDS, SECONDS);
        Arrival backToo = again.poll(Patience.WAIT_SECONDS, SECONDS);
        assertThat(List.of(back, backToo)).doesNotContainNull().extracting(Arrival::body)
                .containsExactlyInAnyOrder("rejected", "crashed");
        assertThat(back.deliveryCount()).isEqualTo(1);
        assertThat(back.marks()).as("what the broker marks on a retry and on a return after a crash")
                .isEqualTo(backToo.marks());
    }

    /** A delivery as a plain consumer saw it: what the broker marks on it, nothing of ours. */
    record Arrival(String body, long tag, boolean redelivered, long deliveryCount, long acquiredCount) {
        static Arrival of(com.rabbitmq.client.Delivery delivery) {
            Map<String, Object> headers = delivery.getProperties().getHeaders() == null
                    ? Map.of() : delivery.getProperties().getHeaders();
            return new Arrival(new String(delivery.getBody(), StandardCharsets.UTF_8),
                    delivery.getEnvelope().getDeliveryTag(), delivery.getEnvelope().isRedeliver(),
                    count(headers.get(RetryHeaders.X_DELIVERY_COUNT)), count(headers.get(RetryHeaders.X_ACQUIRED_COUNT)));
        }

        private static long count(Object header) {
            return header instanceof Number number ? number.longValue() : -1;
        }

        List<Object> marks() {
            return List.of(redelivered, deliveryCount, acquiredCount);
        }
    }

    @Test
    void refusesToStartOnABrokerThatCannotDelayRetries() throws Exception {
        BrokerVersion version = broker.broker().version();
        assumeTrue(!version.atLeast(BrokerVersion.DELAYED_RETRY), "RabbitMQ " + version + " delays retries");
        // Before 4.3.1 a queue given the settings as arguments takes them and ignores them, and every retry would
        // come back at once, until the delivery limit parked it: the consumer refuses before it looks at a queue.
        assertThatThrownBy(() -> startConsuming(context -> { }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("service 'orders' has the broker delay its retries (delayBy: broker), which needs "
                        + "RabbitMQ 4.3.1 or later")
                .hasMessageContaining("is RabbitMQ " + version);
    }

    private void requireDelayedRetry() throws IOException {
        BrokerVersion version = broker.broker().version();
        assumeTrue(version.atLeast(BrokerVersion.DELAYED_RETRY), "RabbitMQ " + version + " does not delay retries");
    }

    private void start(MessageHandler handler) throws IOException {
        topology = broker.declare(spec);
        startConsuming(handler);
    }

    private void startConsuming(MessageHandler handler) throws IOException {
        consumer = RetryingConsumer.builder(connection, Routes.builder(orders).on("order.created", context -> {
            seen.add(new Seen(context.attempt(), System.nanoTime()));
            handler.handle(context);
        }).build()).listener(events).listener(requeued).start();
    }

    private void publish(String body) throws Exception {
        channel.basicPublish("test.events", "order.created", true, new AMQP.BasicProperties.Builder().deliveryMode(2).build(),
                body.getBytes(StandardCharsets.UTF_8));
        channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
    }

    private long count(String queue) throws IOException {
        return channel.messageCount(queue);
    }

    private static long gapMillis(List<Seen> deliveries, int index) {
        return (deliveries.get(index + 1).nanos() - deliveries.get(index).nanos()) / 1_000_000;
    }
}
