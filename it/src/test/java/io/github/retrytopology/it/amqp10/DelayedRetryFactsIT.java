package io.github.retrytopology.it.amqp10;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.GetResponse;
import com.rabbitmq.client.amqp.Connection;
import com.rabbitmq.client.amqp.Consumer;
import com.rabbitmq.client.amqp.Environment;
import com.rabbitmq.client.amqp.Management;
import com.rabbitmq.client.amqp.Message;
import com.rabbitmq.client.amqp.Publisher;
import com.rabbitmq.client.amqp.impl.AmqpEnvironmentBuilder;
import io.github.retrytopology.model.topology.BrokerVersion;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestManagement;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What RabbitMQ 4.3 does with the AMQP 1.0 outcomes a consumer settles a quorum queue's messages with, checked on
 * the real broker before the AMQP 1.0 consumer of issue 33 relies on it: the delivery time a {@code modified}
 * outcome sets ({@code x-opt-delivery-time}), one in the past, the delivery limit, the queue's statistics, the counts
 * a redelivered message carries and a consumer's crash. Runs on RabbitMQ 4.3.1 and later only; docs/runtime.md
 * gives the figures.
 */
class DelayedRetryFactsIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The broker's clock is the machine's: a delivery time and an arrival are compared on it. */
    private static final Clock CLOCK = Clock.systemUTC();
    private static final String DELIVERY_COUNT = "x-delivery-count";
    private static final String ACQUIRED_COUNT = "x-acquired-count";
    private static final String DELIVERY_TIME = "x-opt-delivery-time";
    /** Long enough to show that something did not come back, short enough for a class that runs in seconds. */
    private static final Duration QUIET = Duration.ofMillis(500);

    private static BrokerVersion version;
    private static Environment environment;
    private static Connection connection;

    private final BlockingQueue<Arrival> arrivals = new LinkedBlockingQueue<>();
    private final List<AutoCloseable> resources = new ArrayList<>();
    private String queue;
    private String parkingLot;

    /** A delivery as the consumer saw it, and when (on {@link #CLOCK}, in milliseconds). */
    record Arrival(Message message, Consumer.Context context, long millis) {

        /** A count annotation, or -1 where the broker did not set it. */
        long count(String annotation) {
            Object value = message.annotation(annotation);
            return value == null ? -1 : ((Number) value).longValue();
        }

        /** The delivery time the message carries, in milliseconds since the epoch, or -1. */
        long deliveryTime() {
            Object value = message.annotation(DELIVERY_TIME);
            if (value == null) {
                return -1;
            }
            return value instanceof Date date ? date.getTime() : ((Number) value).longValue();
        }
    }

    @BeforeAll
    static void connect() throws IOException {
        version = broker.broker().version();
        if (version.atLeast(BrokerVersion.DELAYED_RETRY)) {
            environment = new AmqpEnvironmentBuilder().build();
            connection = connect("delayed-retry-facts", true);
        }
    }

    /** Each test, rather than the class, is skipped before 4.3.1, so that the reports count them as skipped. */
    @BeforeEach
    void requireDeliveryTimes() {
        assumeTrue(version.atLeast(BrokerVersion.DELAYED_RETRY),
                "RabbitMQ " + version + " has no delivery time per message (4.3.1 and later)");
    }

    @AfterAll
    static void disconnect() {
        if (environment != null) {
            environment.close();
        }
    }

    @AfterEach
    void closeResources() throws Exception {
        for (AutoCloseable resource : resources) {
            resource.close();
        }
    }

    @Test
    void aFutureDeliveryTimeHoldsTheMessageBackUntilThatTimeAndNoLonger(TestInfo test) throws Exception {
        declare(test, 10, null);
        int messages = 100;
        publish(messages);
        consume(100);

        // Each message fails once with a delivery time 300 ms ahead, then is accepted.
        Map<String, Long> due = new HashMap<>();
        List<Long> late = new ArrayList<>();
        while (late.size() < messages) {
            Arrival arrival = next();
            String id = arrival.message().messageIdAsString();
            if (due.containsKey(id)) {
                late.add(arrival.millis() - due.get(id));
                assertThat(arrival.deliveryTime()).as("the time it was given").isEqualTo(due.get(id));
                arrival.context().accept();
            } else {
                Instant at = Instant.ofEpochMilli(CLOCK.millis()).plusMillis(300);
                due.put(id, at.toEpochMilli());
                arrival.context().delayedRetry(at, true);
            }
        }

        late.sort(null);
        System.out.printf("[facts] a 300 ms delivery time, %d messages: late by p50 %d ms, p90 %d ms, max %d ms%n",
                messages, late.get(messages / 2), late.get(messages * 9 / 10), late.get(messages - 1));
        assertThat(late.get(0)).as("never before its time").isNotNegative();
        assertThat(late.get(messages / 2)).as("p50 lateness").isLessThan(100);
        assertThat(late.get(messages - 1)).as("max lateness").isLessThan(1_000);
        assertNothingMore();
    }

    @Test
    void aDeliveryTimeInThePastRedeliversAtOnceOnAQueueWithoutDelayedRetry(TestInfo test) throws Exception {
        declare(test, 10, null);
        publish(1);
        consume(1);

        next().context().delayedRetry(Instant.ofEpochMilli(CLOCK.millis()).minusSeconds(60), true);
        long settled = CLOCK.millis();
        Arrival second = next();

        System.out.printf("[facts] a delivery time 60 s in the past, no delayed retry: back after %d ms%n",
                second.millis() - settled);
        assertThat(second.millis() - settled).isLessThan(200);
        assertThat(second.count(DELIVERY_COUNT)).isEqualTo(1);
        second.context().accept();
    }

    @Test
    void aDeliveryTimeInThePastFallsBackToTheQueuesLinearDelay(TestInfo test) throws Exception {
        declare(test, 10, Duration.ofMillis(800));
        publish(1);
        consume(1);

        next().context().delayedRetry(Instant.ofEpochMilli(CLOCK.millis()).minusSeconds(60), true);
        long settled = CLOCK.millis();
        Arrival second = next();

        // Not at once: the queue's delayed-retry-min × 1 applies, as if no delivery time had been given.
        System.out.printf("[facts] a delivery time 60 s in the past, delayed-retry-min 800 ms: back after %d ms%n",
                second.millis() - settled);
        assertThat(second.millis() - settled).isBetween(800L, 1_800L);
        assertThat(second.count(DELIVERY_COUNT)).isEqualTo(1);
        second.context().accept();
    }

    @Test
    void aFutureDeliveryTimeTakesPrecedenceOverALongerLinearDelay(TestInfo test) throws Exception {
        declare(test, 10, Duration.ofSeconds(5));
        publish(1);
        consume(1);

        Instant at = Instant.ofEpochMilli(CLOCK.millis()).plusMillis(200);
        next().context().delayedRetry(at, true);
        Arrival second = next();

        System.out.printf("[facts] a delivery time 200 ms ahead, delayed-retry-min 5 s: %d ms late%n",
                second.millis() - at.toEpochMilli());
        assertThat(second.millis() - at.toEpochMilli()).isBetween(0L, 1_000L);
        second.context().accept();
    }

    @Test
    void aLaterFailureWithoutADeliveryTimeIsDelayedByTheQueueDespiteTheStaleOneItCarries(TestInfo test)
            throws Exception {
        declare(test, 10, Duration.ofMillis(400));
        publish(1);
        consume(1);

        next().context().delayedRetry(Instant.ofEpochMilli(CLOCK.millis()).plusMillis(100), true);
        Arrival second = next();
        long stale = second.deliveryTime();
        second.context().requeue(Map.of(), true);
        long settled = CLOCK.millis();
        Arrival third = next();

        // The message still carries the first, past delivery time; the queue's min × 2 = 800 ms applies instead.
        assertThat(third.deliveryTime()).isEqualTo(stale);
        assertThat(third.millis() - settled).isBetween(800L, 1_800L);
        assertThat(third.count(DELIVERY_COUNT)).isEqualTo(2);
        third.context().accept();
    }

    @Test
    void aFailedModifiedOutcomeCountsTowardTheLimitAndTheLastFailureIsDeadLetteredAtOnce(TestInfo test)
            throws Exception {
        declare(test, 2, null);
        publish(1);
        consume(1);

        List<Arrival> deliveries = new ArrayList<>();
        Instant at = Instant.EPOCH;
        for (int attempt = 1; attempt <= 3; attempt++) {
            Arrival arrival = next();
            deliveries.add(arrival);
            // The third, past the limit, asks for 10 s.
            at = Instant.ofEpochMilli(CLOCK.millis()).plusMillis(attempt < 3 ? 300 : 10_000);
            arrival.context().delayedRetry(at, true);
        }
        long lastFailure = CLOCK.millis();
        GetResponse parked = awaitParked();
        long deadLettered = CLOCK.millis() - lastFailure;

        // The count is in the header's delivery-count and in x-delivery-count, from the first failure on.
        assertThat(deliveries).extracting(arrival -> arrival.message().deliveryCount()).containsExactly(0L, 1L, 2L);
        assertThat(deliveries).extracting(arrival -> arrival.count(DELIVERY_COUNT)).containsExactly(-1L, 1L, 2L);
        assertThat(deliveries).extracting(arrival -> arrival.count(ACQUIRED_COUNT)).containsExactly(-1L, 1L, 2L);
        assertThat(deliveries).extracting(arrival -> arrival.message().firstAcquirer())
                .containsExactly(true, false, false);
        // Past the limit (2) the third failure is dead-lettered without waiting for its delivery time.
        System.out.printf("[facts] the failure past the limit reached the dead-letter queue in %d ms%n", deadLettered);
        assertThat(deadLettered).isLessThan(2_000);
        // Read over AMQP 0.9.1, the dead-lettered message keeps the counts and the delivery time it had.
        Map<String, Object> headers = parked.getProps().getHeaders();
        assertThat(String.valueOf(headers.get("x-first-death-reason"))).isEqualTo("delivery_limit");
        assertThat(String.valueOf(headers.get("x-first-death-queue"))).isEqualTo(queue);
        assertThat(headers).containsEntry(DELIVERY_COUNT, 3L).containsEntry(ACQUIRED_COUNT, 3L)
                .containsEntry(DELIVERY_TIME, at.toEpochMilli());
        assertNothingMore();
    }

    @Test
    void aDelayedRetryNotMarkedFailedKeepsItsTimeAndNeverReachesTheLimit(TestInfo test) throws Exception {
        declare(test, 1, null);
        publish(1);
        consume(1);

        // The client's delayedRetry(Duration) without its flag settles modified with delivery-failed=false.
        List<Arrival> deliveries = new ArrayList<>();
        for (int attempt = 1; attempt <= 4; attempt++) {
            Arrival arrival = next();
            deliveries.add(arrival);
            if (attempt < 4) {
                arrival.context().delayedRetry(Duration.ofMillis(100));
            } else {
                arrival.context().accept();
            }
        }

        assertThat(deliveries).extracting(arrival -> arrival.count(DELIVERY_COUNT)).containsOnly(-1L);
        assertThat(deliveries).extracting(arrival -> arrival.message().deliveryCount()).containsOnly(0L);
        assertThat(deliveries).extracting(arrival -> arrival.count(ACQUIRED_COUNT)).containsExactly(-1L, 1L, 2L, 3L);
        for (int i = 1; i < deliveries.size(); i++) {
            assertThat(deliveries.get(i).millis()).isGreaterThanOrEqualTo(deliveries.get(i).deliveryTime());
        }
        assertThat(parkingLotMessages()).isZero();
    }

    @Test
    void releasedAndAModifiedNotFailedRaiseOnlyTheAcquiredCount(TestInfo test) throws Exception {
        declare(test, 1, null);
        publish(1);
        consume(1);

        next().context().requeue();
        Arrival released = next();
        released.context().requeue(Map.of(), false);
        Arrival modified = next();
        modified.context().requeue(Map.of(), true);
        Arrival failed = next();

        assertThat(released.count(DELIVERY_COUNT)).isEqualTo(-1);
        assertThat(released.count(ACQUIRED_COUNT)).isEqualTo(1);
        assertThat(modified.count(DELIVERY_COUNT)).isEqualTo(-1);
        assertThat(modified.count(ACQUIRED_COUNT)).isEqualTo(2);
        assertThat(failed.count(DELIVERY_COUNT)).isEqualTo(1);
        assertThat(failed.count(ACQUIRED_COUNT)).isEqualTo(3);
        failed.context().accept();
    }

    @Test
    void onAmqp091ANackRaisesOnlyTheAcquiredCountAndARejectTheDeliveryCount(TestInfo test) throws Exception {
        declare(test, 1, null);
        publish(1);
        com.rabbitmq.client.Channel channel = broker.connect("delayed-retry-facts-091").createChannel();

        GetResponse first = get(channel);
        channel.basicNack(first.getEnvelope().getDeliveryTag(), false, true);
        GetResponse nacked = get(channel);
        channel.basicReject(nacked.getEnvelope().getDeliveryTag(), true);
        GetResponse rejected = get(channel);

        assertThat(first.getProps().getHeaders()).as("a first delivery has no headers at all").isNull();
        assertThat(nacked.getProps().getHeaders()).doesNotContainKey(DELIVERY_COUNT).containsEntry(ACQUIRED_COUNT, 1L);
        assertThat(rejected.getProps().getHeaders()).containsEntry(DELIVERY_COUNT, 1L).containsEntry(ACQUIRED_COUNT, 2L);
        channel.basicAck(rejected.getEnvelope().getDeliveryTag(), false);
    }

    @Test
    void aDelayedMessageIsCountedAsDelayedNeitherReadyNorUnacknowledged(TestInfo test) throws Exception {
        declare(test, 10, null);
        publish(1);
        consume(1);
        Instant at = Instant.ofEpochMilli(CLOCK.millis()).plusSeconds(30);
        next().context().delayedRetry(at, true);

        // The statistics come from the queue's metrics, emitted every 5 s, and not all of a queue's fields in the
        // same emission (on 4.3.6 a response once had messages_delayed 1 and messages still 0): wait for both.
        String path = "api/queues/" + TestManagement.encode(broker.name()) + "/" + TestManagement.encode(queue);
        long settled = CLOCK.millis();
        JsonNode[] seen = new JsonNode[1];
        await().atMost(Patience.WAIT).pollInterval(Duration.ofMillis(200)).until(() -> {
            seen[0] = JSON.readTree(broker.management().get(path));
            return seen[0].path("messages_delayed").asLong() == 1 && seen[0].path("messages").asLong() == 1;
        });
        System.out.printf("[facts] messages_delayed showed the delayed message after %d ms%n",
                CLOCK.millis() - settled);
        JsonNode statistics = seen[0];
        JsonNode totals = JSON.readTree(broker.management().get(path + "?disable_stats=true&enable_queue_totals=true"));

        assertThat(statistics.path("messages").asLong()).isEqualTo(1);
        assertThat(statistics.path("messages_ready").asLong()).isZero();
        assertThat(statistics.path("messages_unacknowledged").asLong()).isZero();
        assertThat(statistics.path("next_delayed_at").asLong()).isEqualTo(at.toEpochMilli());
        assertThat(statistics.path("consumers").asLong()).isEqualTo(1);
        assertThat(statistics.path("delayed_retry").asText()).isEqualTo("disabled");
        // The totals count it in messages only, and have no field for it.
        assertThat(totals.path("messages").asLong()).isEqualTo(1);
        assertThat(totals.path("messages_ready").asLong()).isZero();
        assertThat(totals.path("messages_unacknowledged").asLong()).isZero();
        assertThat(totals.has("messages_delayed")).isFalse();
        // Over AMQP, a declaration counts only ready messages: none.
        assertThat(connection.management().queueInfo(queue).messageCount()).isZero();
    }

    @Test
    void aConnectionTheClientClosesReturnsItsUnsettledMessagesUncounted(TestInfo test) throws Exception {
        declare(test, 10, null);
        publish(1);
        Connection closing = connect("closed-by-client", false);
        consume(closing, 1);
        next();

        closing.close();
        consume(1);
        Arrival again = next();

        assertThat(again.count(DELIVERY_COUNT)).isEqualTo(-1);
        assertThat(again.count(ACQUIRED_COUNT)).isEqualTo(1);
        again.context().accept();
    }

    @Test
    void aConnectionTheBrokerClosesCountsItsUnsettledMessagesAsFailed(TestInfo test) throws Exception {
        declare(test, 10, null);
        publish(1);
        Connection closed = connect("closed-by-broker", false);
        consume(closed, 1);
        next();

        closeFromTheBroker("closed-by-broker");
        consume(1);
        Arrival again = next();

        assertThat(again.count(DELIVERY_COUNT)).isEqualTo(1);
        assertThat(again.count(ACQUIRED_COUNT)).isEqualTo(1);
        again.context().accept();
    }

    @Test
    void aConsumerProcessKilledCountsItsUnsettledMessagesAsFailed(TestInfo test) throws Exception {
        declare(test, 10, null);
        publish(1);
        URI amqp = broker.broker().amqpUri();
        String[] credentials = amqp.getUserInfo().split(":", 2);
        Process consumer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), HoldingConsumer.class.getName(),
                amqp.getHost(), String.valueOf(amqp.getPort()), credentials[0], credentials[1], broker.name(), queue)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try (BufferedReader output = new BufferedReader(
                new InputStreamReader(consumer.getInputStream(), StandardCharsets.UTF_8))) {
            CompletableFuture<Boolean> holding = CompletableFuture.supplyAsync(() -> {
                try {
                    String line;
                    while ((line = output.readLine()) != null) {
                        if (line.equals(HoldingConsumer.HOLDING)) {
                            return true;
                        }
                    }
                    return false;
                } catch (IOException e) {
                    return false;
                }
            });
            assertThat(holding.get(Patience.WAIT_SECONDS, TimeUnit.SECONDS)).as("the consumer holds the message").isTrue();
        } finally {
            consumer.destroyForcibly(); // SIGKILL: no AMQP close reaches the broker
            consumer.waitFor(Patience.WAIT_SECONDS, TimeUnit.SECONDS);
        }
        consume(1);
        Arrival again = next();

        assertThat(again.count(DELIVERY_COUNT)).isEqualTo(1);
        assertThat(again.count(ACQUIRED_COUNT)).isEqualTo(1);
        again.context().accept();
    }

    /**
     * Closes a connection of this virtual host from the broker's side, by its client-provided name, as soon as the
     * management API lists it (here about 4 s after it opened), with {@code disable_stats}, without which a new
     * connection's delete answers 404 for seconds.
     */
    private static void closeFromTheBroker(String name) {
        await().atMost(Patience.WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
            for (JsonNode connection : JSON.readTree(broker.management().get("api/connections?disable_stats=true"))) {
                if (broker.name().equals(connection.path("vhost").asText())
                        && name.equals(connection.path("client_properties").path("connection_name").asText())) {
                    broker.management().delete("api/connections/"
                            + TestManagement.encode(connection.path("name").asText()) + "?disable_stats=true");
                    return true;
                }
            }
            return false;
        });
    }

    private static Connection connect(String name, boolean recover) throws IOException {
        URI amqp = broker.broker().amqpUri();
        String[] credentials = amqp.getUserInfo().split(":", 2);
        return environment.connectionBuilder()
                .host(amqp.getHost()).port(amqp.getPort() < 0 ? 5672 : amqp.getPort())
                .username(credentials[0]).password(credentials[1]).virtualHost(broker.name())
                .name(name)
                .recovery().activated(recover).connectionBuilder()
                .build();
    }

    /**
     * A quorum queue for this test with a delivery limit, dead-lettering to a parking lot of its own, and the
     * broker's linear delay for failed deliveries when {@code delayedRetryMin} is given.
     */
    private void declare(TestInfo test, int deliveryLimit, Duration delayedRetryMin) {
        queue = test.getTestMethod().orElseThrow().getName();
        parkingLot = queue + ".parking-lot";
        Management management = connection.management();
        management.queue(parkingLot).quorum().queue().declare();
        Management.QuorumQueueSpecification spec = management.queue(queue).quorum().deliveryLimit(deliveryLimit);
        if (delayedRetryMin != null) {
            spec.delayedRetryType(Management.DelayedRetryType.FAILED).delayedRetryMin(delayedRetryMin)
                    .delayedRetryMax(Duration.ofSeconds(30));
        }
        spec.queue().deadLetterExchange("").deadLetterRoutingKey(parkingLot).declare();
    }

    /** Publishes messages "0", "1"… with those ids to this test's queue, each accepted by the broker. */
    private void publish(int messages) throws InterruptedException {
        Publisher publisher = connection.publisherBuilder().queue(queue).build();
        resources.add(publisher);
        CountDownLatch accepted = new CountDownLatch(messages);
        for (int i = 0; i < messages; i++) {
            publisher.publish(publisher.message(String.valueOf(i).getBytes(StandardCharsets.UTF_8))
                    .messageId(String.valueOf(i)), context -> {
                        if (context.status() == Publisher.Status.ACCEPTED) {
                            accepted.countDown();
                        }
                    });
        }
        assertThat(accepted.await(Patience.WAIT_SECONDS, TimeUnit.SECONDS)).as("the broker accepted them").isTrue();
    }

    private void consume(int credits) {
        consume(connection, credits);
    }

    /** Consumes this test's queue into {@link #arrivals}, leaving every delivery for the test to settle. */
    private void consume(Connection on, int credits) {
        Consumer consumer = on.consumerBuilder().queue(queue).initialCredits(credits)
                .messageHandler((context, message) -> arrivals.add(new Arrival(message, context, CLOCK.millis())))
                .build();
        if (on == connection) {
            resources.add(consumer);
        }
    }

    private Arrival next() throws InterruptedException {
        Arrival arrival = arrivals.poll(Patience.WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(arrival).as("a delivery from " + queue).isNotNull();
        return arrival;
    }

    private void assertNothingMore() throws InterruptedException {
        assertThat(arrivals.poll(QUIET.toMillis(), TimeUnit.MILLISECONDS)).as("another delivery").isNull();
    }

    private GetResponse awaitParked() throws Exception {
        com.rabbitmq.client.Channel channel = broker.connect("delayed-retry-facts-parked").createChannel();
        GetResponse[] parked = new GetResponse[1];
        await().atMost(Patience.WAIT).pollInterval(Duration.ofMillis(10))
                .until(() -> (parked[0] = channel.basicGet(parkingLot, true)) != null);
        return parked[0];
    }

    private long parkingLotMessages() {
        return connection.management().queueInfo(parkingLot).messageCount();
    }

    private GetResponse get(com.rabbitmq.client.Channel channel) throws Exception {
        GetResponse[] got = new GetResponse[1];
        await().atMost(Patience.WAIT).pollInterval(Duration.ofMillis(10))
                .until(() -> (got[0] = channel.basicGet(queue, false)) != null);
        return got[0];
    }
}
