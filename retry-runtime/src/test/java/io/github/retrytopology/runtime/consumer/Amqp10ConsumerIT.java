package io.github.retrytopology.runtime.consumer;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.GetResponse;
import com.rabbitmq.client.amqp.BackOffDelayPolicy;
import com.rabbitmq.client.amqp.Connection;
import com.rabbitmq.client.amqp.Environment;
import com.rabbitmq.client.amqp.impl.AmqpEnvironmentBuilder;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.decision.Decision;
import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.topology.BrokerVersion;
import io.github.retrytopology.model.topology.Policy;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.amqp091.Received;
import io.github.retrytopology.runtime.headers.RetryHeaders;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The AMQP 1.0 consumer on a real broker: on RabbitMQ 4.3.1 and later the whole path, with a delay list that does
 * not grow linearly; on 4.0 to 4.3.0 its refusal to start. (Before 4.0 the AMQP 1.0 client does not connect.)
 */
class Amqp10ConsumerIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private static RetrySpec spec;
    private static Service orders;
    private static Environment environment;

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
    private com.rabbitmq.client.Connection publishing;
    private Channel channel;
    private Connection connection;
    private Amqp10RetryingConsumer consumer;

    /** One delivery a handler saw: its attempt, when, and when it says it first failed. */
    record Seen(int attempt, long nanos, Instant firstFailure) {
    }

    @BeforeAll
    static void loadSpec() throws IOException {
        spec = Specs.load(Path.of("src/test/resources/specs/amqp10-retries.yml"));
        orders = spec.service("orders");
        environment = new AmqpEnvironmentBuilder().build();
    }

    @AfterAll
    static void closeEnvironment() {
        environment.close();
    }

    @BeforeEach
    void connect() throws IOException {
        BrokerVersion version = broker.broker().version();
        assumeTrue(version.atLeast(new BrokerVersion(4, 0, 0)), "RabbitMQ " + version + " has no AMQP 1.0 core");
        publishing = broker.connect("amqp10-it");
        channel = publishing.createChannel();
        channel.confirmSelect();
        URI amqp = broker.broker().amqpUri();
        String[] credentials = amqp.getUserInfo().split(":", 2);
        connection = environment.connectionBuilder()
                .host(amqp.getHost()).port(amqp.getPort() < 0 ? 5672 : amqp.getPort())
                .username(credentials[0]).password(credentials[1]).virtualHost(broker.name())
                .name("amqp10-consumer-it")
                .build();
    }

    @AfterEach
    void stopAndDelete() throws Exception {
        if (consumer != null) {
            consumer.stop(Duration.ofSeconds(5));
        }
        if (connection != null) {
            connection.close();
        }
        if (publishing != null) {
            publishing.close();
        }
        if (topology != null) {
            broker.deleteQueues(topology);
        }
    }

    @Test
    void retriesAfterEachListedDelayAndParksTheLastFailureWithItsHeaders() throws Exception {
        requireDelayedRetry();
        start(context -> {
            throw new IllegalStateException("boom on attempt " + context.attempt());
        });

        publish("hello");

        await().atMost(Patience.WAIT).until(() -> events.parks.size() == 1);
        List<Seen> deliveries = List.copyOf(seen);
        assertThat(deliveries).extracting(Seen::attempt).containsExactly(1, 2, 3, 4);
        // The broker holds each retry until its time: 600, 200 and 400 ms, never less, in the spec's order.
        assertThat(gapMillis(deliveries, 0)).isBetween(600L, 2_100L);
        assertThat(gapMillis(deliveries, 1)).isBetween(200L, 1_700L);
        assertThat(gapMillis(deliveries, 2)).isBetween(400L, 1_900L);
        assertThat(requeues).extracting(Decision.Requeue::delay)
                .containsExactly(Duration.ofMillis(600), Duration.ofMillis(200), Duration.ofMillis(400));
        assertThat(events.retries).isEmpty();
        assertThat(events.redeliveries).as("a retry the broker counted is no sign of a crash").isEmpty();
        assertThat(events.parks.get(0).reason()).isEqualTo(ParkReason.ATTEMPTS_EXHAUSTED);
        // The first failure's time travels with the message, as an annotation of ours.
        assertThat(deliveries.get(0).firstFailure()).isNull();
        Instant first = deliveries.get(1).firstFailure();
        assertThat(first).isNotNull();
        assertThat(deliveries.subList(2, 4)).extracting(Seen::firstFailure).containsOnly(first);

        GetResponse parked = channel.basicGet(orders.parkingLot(), true);
        assertThat(new String(parked.getBody(), StandardCharsets.UTF_8)).isEqualTo("hello");
        RetryHeaders headers = RetryHeaders.of(Received.headers(parked.getProps().getHeaders()));
        assertThat(headers.attempts()).isEqualTo(4);
        assertThat(headers.exceptionMessage()).hasValue("boom on attempt 4");
        assertThat(headers.parkReason()).hasValue(ParkReason.ATTEMPTS_EXHAUSTED);
        assertThat(headers.originalExchange()).hasValue("test.events");
        assertThat(headers.originalRoutingKey()).hasValue("order.created");
        assertThat(headers.firstFailure()).hasValue(first);
        assertThat(headers.lastFailure()).isPresent().isEqualTo(headers.parkedAt());
        assertThat(parked.getProps().getMessageId()).isEqualTo("m-hello");
        assertThat(parked.getProps().getExpiration()).as("a parked message never expires").isNull();
        assertThat(channel.messageCount(orders.queue())).isZero();
    }

    @Test
    void succeedsOnARetryWithTheAttemptTheBrokerCounted() throws Exception {
        requireDelayedRetry();
        start(context -> {
            if (context.attempt() < 3) {
                throw new IllegalStateException("not yet");
            }
            assertThat(context.exchange()).isEqualTo("test.events");
            assertThat(context.routingKey()).isEqualTo("order.created");
            assertThat(context.messageId()).hasValue("m-hello");
            assertThat(context.properties().getContentType()).isEqualTo("text/plain");
            assertThat(context.properties().getHeaders()).containsEntry("tenant", "acme");
        });

        publish("hello");

        await().atMost(Patience.WAIT).until(() -> events.successes.get() == 1);
        assertThat(seen).extracting(Seen::attempt).containsExactly(1, 2, 3);
        assertThat(events.parks).isEmpty();
        assertThat(channel.messageCount(orders.parkingLot())).isZero();
        assertThat(consumer.inFlight()).isZero();
    }

    /**
     * The client reads a message without a time to live as one with the largest an AMQP 1.0 header holds, 2^32 - 1
     * ms: that is no expiration, not one of 49.7 days, neither for the handler nor in the parked copy's headers.
     */
    @Test
    void givesAnExpirationOnlyToAMessagePublishedWithOne() throws Exception {
        requireDelayedRetry();
        List<DeliveryContext> contexts = new CopyOnWriteArrayList<>();
        start(context -> {
            contexts.add(context);
            throw new IllegalArgumentException("bad input");
        });

        publish("hello");
        channel.basicPublish("test.events", "order.created", true, new AMQP.BasicProperties.Builder().deliveryMode(2)
                .messageId("m-expiring").expiration("60000").build(), "expiring".getBytes(StandardCharsets.UTF_8));
        channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());

        await().atMost(Patience.WAIT).until(() -> events.parks.size() == 2);
        assertThat(contexts).extracting(context -> context.messageId().orElseThrow(),
                DeliveryContext::originalExpiration, context -> context.properties().getExpiration())
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("m-hello", Optional.empty(), null),
                        org.assertj.core.groups.Tuple.tuple("m-expiring", Optional.of("60000"), "60000"));
        Map<String, Optional<String>> parked = new LinkedHashMap<>();
        for (GetResponse got; (got = channel.basicGet(orders.parkingLot(), true)) != null; ) {
            parked.put(got.getProps().getMessageId(),
                    RetryHeaders.of(Received.headers(got.getProps().getHeaders())).originalExpiration());
        }
        assertThat(parked).containsOnly(Map.entry("m-hello", Optional.empty()),
                Map.entry("m-expiring", Optional.of("60000")));
    }

    /**
     * A publisher's AMQP 0.9.1 header whose name starts with {@code x-} reaches an AMQP 1.0 consumer as a message
     * annotation, tables and arrays included, and its {@code type} as one too: the handler sees them among the
     * headers and properties, as over AMQP 0.9.1, and the parked copy keeps them, so that the parking lot shows them
     * as they were. The broker's own annotations and the consumer's stay behind.
     */
    @Test
    void showsThePublishersXHeadersToTheHandlerAndKeepsThemInTheParkedCopy() throws Exception {
        requireDelayedRetry();
        List<AMQP.BasicProperties> handed = new CopyOnWriteArrayList<>();
        start(context -> {
            handed.add(context.properties());
            throw new IllegalArgumentException("bad input");
        });

        Map<String, Object> headers = Map.of("tenant", "acme", "x-tenant", "acme", "x-tags", List.of("a", "b"),
                "x-limits", Map.of("retries", 3, "strict", true), "x-seen", 7L);
        channel.basicPublish("test.events", "order.created", true, new AMQP.BasicProperties.Builder().deliveryMode(2)
                .messageId("m-x").type("order").appId("shop").headers(headers).build(),
                "x".getBytes(StandardCharsets.UTF_8));
        channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());

        await().atMost(Patience.WAIT).until(() -> events.parks.size() == 1);
        assertThat(Received.headers(handed.get(0).getHeaders())).containsAllEntriesOf(headers)
                .doesNotContainKeys("x-exchange", "x-routing-key", "x-basic-type");
        assertThat(handed.get(0).getType()).isEqualTo("order");
        assertThat(handed.get(0).getAppId()).isEqualTo("shop");
        GetResponse parked = channel.basicGet(orders.parkingLot(), true);
        Map<String, Object> kept = Received.headers(parked.getProps().getHeaders());
        assertThat(kept).containsAllEntriesOf(headers)
                .doesNotContainKeys("x-exchange", "x-routing-key", "x-basic-type", "x-opt-delivery-time",
                        "x-opt-retry-first-failure", "retry-dropped-headers");
        assertThat(parked.getProps().getType()).isEqualTo("order");
        assertThat(parked.getProps().getAppId()).isEqualTo("shop");
        assertThat(parked.getProps().getExpiration()).isNull();
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
        com.rabbitmq.client.Connection crashing = broker.connect("crashing");
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
    void keepsTheMessageUnsettledWhileTheParkingLotRefusesItsCopyAndParksItOnceTheLotTakesIt() throws Exception {
        requireDelayedRetry();
        topology = broker.declare(spec);
        Policy lot = topology.policies().stream().filter(policy -> policy.name().equals(orders.parkingLot()))
                .findFirst().orElseThrow();
        Map<String, Object> full = new LinkedHashMap<>(lot.definition());
        full.put("max-length", 0);
        full.put("overflow", "reject-publish");
        broker.management().putPolicy(broker.name(), new Policy(lot.name(), lot.pattern(), lot.applyTo(),
                lot.priority(), full));
        // A quorum queue takes a policy a moment after it is set: until then it would take the park.
        await().atMost(Patience.WAIT).until(() -> refuses(orders.parkingLot()));
        startConsuming(context -> {
            throw new IllegalArgumentException("bad input");
        });

        publish("hello");

        await().atMost(Patience.WAIT).until(() -> events.republishFailures.size() >= 2);
        assertThat(events.parks).isEmpty();
        assertThat(consumer.inFlight()).as("the original waits, unsettled").isEqualTo(1);
        full.put("max-length", 1_000_000);
        broker.management().putPolicy(broker.name(), new Policy(lot.name(), lot.pattern(), lot.applyTo(),
                lot.priority(), full));

        await().atMost(Patience.WAIT).until(() -> events.parks.size() == 1);
        assertThat(seen).as("the handler ran once: a refused park does not run it again").hasSize(1);
        await().atMost(Patience.WAIT).until(() -> consumer.inFlight() == 0);
        List<String> parked = new java.util.ArrayList<>();
        for (GetResponse got; (got = channel.basicGet(orders.parkingLot(), true)) != null; ) {
            parked.add(new String(got.getBody(), StandardCharsets.UTF_8));
        }
        assertThat(parked).as("the probe the queue took before it refused, and the park").containsExactly("probe",
                "hello");
        assertThat(channel.messageCount(orders.queue())).isZero();
    }

    @Test
    void aStopGivesBackWhatIsNotHandledYetWithoutCountingIt() throws Exception {
        requireDelayedRetry();
        topology = broker.declare(spec);
        for (int i = 0; i < 5; i++) {
            publish("m" + i);
        }
        BlockingQueue<Boolean> release = new LinkedBlockingQueue<>();
        startConsuming(context -> release.take());
        await().atMost(Patience.WAIT).until(() -> seen.size() == 1);

        Thread stopper = new Thread(() -> {
            try {
                consumer.stop(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        stopper.start();
        release.add(true);
        stopper.join(10_000);
        consumer = null;

        assertThat(events.successes.get()).isEqualTo(1);
        await().atMost(Patience.WAIT).until(() -> channel.messageCount(orders.queue()) == 4);
        GetResponse back = channel.basicGet(orders.queue(), true);
        assertThat(back.getProps().getHeaders()).as("given back uncounted")
                .doesNotContainKey(RetryHeaders.X_DELIVERY_COUNT);
    }

    /**
     * The client hands over the deliveries it took before its connection went, though the broker has them back,
     * each counted as a failed attempt, and drops whatever outcome they are given: handled, each would run twice.
     */
    @Test
    void doesNotHandleTheDeliveriesItsClientStillHeldWhenItsConnectionWasLost() throws Exception {
        requireDelayedRetry();
        topology = broker.declare(spec);
        for (int i = 0; i < 5; i++) {
            publish("m" + i);
        }
        URI amqp = broker.broker().amqpUri();
        String[] credentials = amqp.getUserInfo().split(":", 2);
        Connection recovering = environment.connectionBuilder()
                .host(amqp.getHost()).port(amqp.getPort() < 0 ? 5672 : amqp.getPort())
                .username(credentials[0]).password(credentials[1]).virtualHost(broker.name())
                .name("amqp10-connection-lost")
                .recovery().backOffDelayPolicy(BackOffDelayPolicy.fixed(Duration.ofMillis(100))).connectionBuilder()
                .build();
        List<String> handled = new CopyOnWriteArrayList<>();
        CountDownLatch lost = new CountDownLatch(1);
        try {
            consumer = Amqp10RetryingConsumer.builder(recovering, Routes.builder(orders).on("order.created", context -> {
                handled.add(new String(context.body(), StandardCharsets.UTF_8) + "#" + context.attempt());
                if (handled.size() == 1) {
                    lost.await();
                }
            }).build()).prefetch(5).listener(events).start();
            // The first delivery is in its handler, and the client holds the other four behind it.
            await().atMost(Patience.WAIT).until(() -> handled.size() == 1
                    && channel.messageCount(orders.queue()) == 0);

            // The management API lists a connection a moment after it opens.
            await().atMost(Patience.WAIT).until(() -> broker.management().closeConnections(broker.name(),
                    "amqp10-connection-lost") == 1);
            await().atMost(Patience.WAIT).until(() -> events.consumers.stream().anyMatch(e -> e.startsWith("lost")));
            lost.countDown();

            await().atMost(Patience.WAIT).until(() -> handled.size() >= 6 && events.successes.get() >= 5);
            assertThat(handled).as("the one in its handler then, and each of the five once its connection was back")
                    .containsExactlyInAnyOrder("m0#1", "m0#2", "m1#2", "m2#2", "m3#2", "m4#2");
            assertThat(events.successes).as("the first, accepted on a lost link, never reached the broker: not a "
                    + "success").hasValue(5);
        } finally {
            lost.countDown();
            if (consumer != null) {
                consumer.stop(Duration.ofSeconds(5));
                consumer = null;
            }
            recovering.close();
        }
    }

    @Test
    void refusesAServiceConsumedOverAmqp091() throws Exception {
        requireDelayedRetry();
        Service classic = Specs.load(Path.of("src/test/resources/specs/broker-retries.yml")).service("orders");
        assertThatThrownBy(() -> Amqp10RetryingConsumer.builder(connection, Routes.builder(classic)
                .on("order.created", context -> { }).build()).start())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("service 'orders' is consumed over amqp-0.9.1, not amqp-1.0");
    }

    @Test
    void theAmqp091ConsumerRefusesAServiceConsumedOverAmqp10() {
        com.rabbitmq.client.Connection plain = publishing;
        assertThatThrownBy(() -> RetryingConsumer.builder(plain, Routes.builder(orders)
                .on("order.created", context -> { }).build()).start())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("service 'orders' is consumed over amqp-1.0")
                .hasMessageContaining("Amqp10RetryingConsumer");
    }

    @Test
    void refusesAQueueThatIsNotAQuorumQueue() throws Exception {
        requireDelayedRetry();
        channel.queueDeclare(orders.queue(), true, false, false, Map.of("x-queue-type", "classic"));
        try {
            assertThatThrownBy(() -> startConsuming(context -> { }))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("its queue orders is a classic queue");
        } finally {
            channel.queueDelete(orders.queue());
        }
    }

    @Test
    void refusesToStartOnABrokerThatCannotHoldARetryUntilItsTime() throws Exception {
        BrokerVersion version = broker.broker().version();
        assumeTrue(!version.atLeast(BrokerVersion.DELAYED_RETRY), "RabbitMQ " + version + " holds retries");
        assertThatThrownBy(() -> startConsuming(context -> { }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("service 'orders' is consumed over AMQP 1.0 with a delivery time per retry, "
                        + "which needs RabbitMQ 4.3.1 or later")
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

    private void startConsuming(MessageHandler handler) {
        consumer = Amqp10RetryingConsumer.builder(connection, Routes.builder(orders).on("order.created", context -> {
            seen.add(new Seen(context.attempt(), System.nanoTime(), context.firstFailure().orElse(null)));
            handler.handle(context);
        }).build()).listener(events).listener(requeued).start();
    }

    private void publish(String body) throws Exception {
        channel.basicPublish("test.events", "order.created", true, new AMQP.BasicProperties.Builder().deliveryMode(2)
                .messageId("m-" + body).contentType("text/plain").headers(Map.of("tenant", "acme")).build(),
                body.getBytes(StandardCharsets.UTF_8));
        channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
    }

    /** Whether the queue refuses a message now, as a full queue that rejects publishes does. */
    private boolean refuses(String queue) throws Exception {
        channel.basicPublish("", queue, true, null, "probe".getBytes(StandardCharsets.UTF_8));
        return !channel.waitForConfirms(Patience.WAIT.toMillis());
    }

    private static long gapMillis(List<Seen> deliveries, int index) {
        return (deliveries.get(index + 1).nanos() - deliveries.get(index).nanos()) / 1_000_000;
    }
}
