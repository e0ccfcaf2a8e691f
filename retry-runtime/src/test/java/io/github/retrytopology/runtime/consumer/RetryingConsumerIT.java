package io.github.retrytopology.runtime.consumer;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import com.rabbitmq.client.impl.recovery.AutorecoveringConnection;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.Tier;
import io.github.retrytopology.model.decision.Decision;
import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.amqp091.Received;
import io.github.retrytopology.runtime.headers.RetryHeaders;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.SeveringSocketFactory;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The consumer against a real broker, with tiers of a few hundred milliseconds. */
class RetryingConsumerIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private static final String EXCHANGE = "test.events";
    private static RetrySpec spec;
    private static Service orders;
    private static Service audit;

    private final List<RetryingConsumer> consumers = new ArrayList<>();
    private final BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
    private final RecordingListener events = new RecordingListener();
    private Topology topology;
    private Connection connection;
    private Channel channel;

    /** One delivery a handler saw. */
    record Seen(String service, String routingKey, int attempt, Instant at, Object payload) {
    }

    @BeforeAll
    static void loadSpec() throws IOException {
        spec = Specs.load(Path.of("src/test/resources/specs/fast-retries.yml"));
        orders = spec.service("orders");
        audit = spec.service("audit");
    }

    @BeforeEach
    void declare() throws IOException {
        topology = broker.declare(spec);
        connection = broker.connect("retrying-consumer-it");
        channel = connection.createChannel();
        channel.confirmSelect();
    }

    @AfterEach
    void stopAndDelete() throws Exception {
        for (RetryingConsumer consumer : consumers) {
            consumer.stop(Duration.ofSeconds(5));
        }
        connection.close();
        broker.deleteQueues(topology);
    }

    @Test
    void acknowledgesAMessageItsHandlerTakes() throws Exception {
        start(orders, context -> record(context, null));

        publish("order.created", "hello");

        assertThat(seen.poll(Patience.WAIT_SECONDS, SECONDS)).extracting(Seen::attempt, Seen::payload).containsExactly(1, null);
        stopAll();
        assertThat(events.successes).hasValue(1);
        assertQueues(Map.of(audit.queue(), 1));
    }

    @Test
    void retriesAFailureThroughEachTierAfterItsDelay() throws Exception {
        start(orders, context -> {
            record(context, null);
            if (context.attempt() < 3) {
                throw new IllegalStateException("not yet");
            }
        });

        publish("order.created", "hello");

        Seen first = seen.poll(Patience.WAIT_SECONDS, SECONDS);
        Seen second = seen.poll(Patience.WAIT_SECONDS, SECONDS);
        Seen third = seen.poll(Patience.WAIT_SECONDS, SECONDS);
        assertThat(List.of(first.attempt(), second.attempt(), third.attempt())).containsExactly(1, 2, 3);
        assertThat(Duration.between(first.at(), second.at())).isBetween(Duration.ofMillis(200), Duration.ofMillis(1_700));
        assertThat(Duration.between(second.at(), third.at())).isBetween(Duration.ofMillis(400), Duration.ofMillis(1_900));
        assertThat(third.routingKey()).isEqualTo("order.created");
        stopAll();
        assertThat(events.retries).extracting(Tier::number).containsExactly(1, 2);
        assertQueues(Map.of(audit.queue(), 1));
    }

    @Test
    void parksAfterTheLastAttemptWithItsBodyPropertiesAndEveryFailureHeader() throws Exception {
        start(orders, context -> {
            record(context, null);
            throw new IllegalStateException("boom on attempt " + context.attempt());
        });
        Date timestamp = new Date(1_700_000_000_000L);
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder()
                .contentType("application/json").contentEncoding("identity").messageId("m-1").correlationId("c-1")
                .timestamp(timestamp).type("order").appId("shop").headers(Map.of("tenant", "acme")).build();

        publish("order.created", "{\"id\":1}", properties);

        await().atMost(Patience.WAIT).until(() -> events.parks.size() == 1);
        assertThat(seen).extracting(Seen::attempt).containsExactly(1, 2, 3, 4);
        assertThat(events.retries).extracting(Tier::number).containsExactly(1, 2, 3);
        assertThat(events.parks.get(0).reason()).isEqualTo(ParkReason.ATTEMPTS_EXHAUSTED);
        GetResponse parked = channel.basicGet(orders.parkingLot(), true);
        assertThat(new String(parked.getBody(), StandardCharsets.UTF_8)).isEqualTo("{\"id\":1}");
        AMQP.BasicProperties kept = parked.getProps();
        assertThat(kept.getContentType()).isEqualTo("application/json");
        assertThat(kept.getContentEncoding()).isEqualTo("identity");
        assertThat(kept.getMessageId()).isEqualTo("m-1");
        assertThat(kept.getCorrelationId()).isEqualTo("c-1");
        assertThat(kept.getTimestamp()).isEqualTo(timestamp);
        assertThat(kept.getType()).isEqualTo("order");
        assertThat(kept.getAppId()).isEqualTo("shop");
        assertThat(kept.getDeliveryMode()).isEqualTo(2);
        assertThat(kept.getHeaders().get("tenant")).hasToString("acme");
        RetryHeaders headers = RetryHeaders.of(Received.headers(kept.getHeaders()));
        assertThat(headers.attempts()).isEqualTo(4);
        assertThat(headers.exception()).hasValue(IllegalStateException.class.getName());
        assertThat(headers.exceptionMessage()).hasValue("boom on attempt 4");
        assertThat(headers.originalExchange()).hasValue(EXCHANGE);
        assertThat(headers.originalRoutingKey()).hasValue("order.created");
        assertThat(headers.firstFailure()).isPresent();
        assertThat(headers.parkedAt()).isPresent();
        assertThat(headers.parkReason()).hasValue(ParkReason.ATTEMPTS_EXHAUSTED);
        assertThat(headers.failures()).hasSize(4).last().asString().contains("attempt 4", "boom on attempt 4");
        assertThat(headers.deliveryCount()).isZero();
        stopAll();
        assertQueues(Map.of(audit.queue(), 1));
    }

    @Test
    void parksANonRetryableFailureAtOnce() throws Exception {
        start(orders, context -> {
            record(context, null);
            throw new IllegalArgumentException("bad input");
        });

        publish("order.created", "hello");

        await().atMost(Patience.WAIT).until(() -> events.parks.size() == 1);
        assertThat(events.parks.get(0).reason()).isEqualTo(ParkReason.NON_RETRYABLE);
        assertThat(seen).hasSize(1);
        assertThat(events.retries).isEmpty();
        stopAll();
        assertQueues(Map.of(orders.parkingLot(), 1, audit.queue(), 1));
    }

    @Test
    void parksAnUndecodablePayloadAtOnceWithoutCallingItsHandler() throws Exception {
        start(orders, context -> record(context, null));

        publish("order.42.paid", new byte[] {(byte) 0xC3, (byte) 0x28}, new AMQP.BasicProperties());

        await().atMost(Patience.WAIT).until(() -> events.parks.size() == 1);
        assertThat(events.parks.get(0).reason()).isEqualTo(ParkReason.UNDECODABLE);
        assertThat(events.parks.get(0).detail()).isEqualTo("cannot decode the body into java.lang.String: not valid UTF-8 text");
        assertThat(seen).isEmpty();
        stopAll();
        assertQueues(Map.of(orders.parkingLot(), 1));
    }

    @Test
    void decodesATypedPayload() throws Exception {
        start(orders, context -> record(context, null));

        publish("order.42.paid", "paid in full");

        assertThat(seen.poll(Patience.WAIT_SECONDS, SECONDS)).extracting(Seen::routingKey, Seen::payload)
                .containsExactly("order.42.paid", "paid in full");
    }

    @Test
    void parksWhenTheHandlerSaysSoAndRetriesWhenItSaysSo() throws Exception {
        start(orders, context -> {
            record(context, null);
            if (context.attempt() == 1) {
                throw new RetryMessageException("try again", new IllegalArgumentException("listed, but retried"));
            }
            throw new ParkMessageException("a person must look at this");
        });

        publish("order.created", "hello");

        await().atMost(Patience.WAIT).until(() -> events.parks.size() == 1);
        assertThat(seen).extracting(Seen::attempt).containsExactly(1, 2);
        assertThat(events.parks.get(0)).isEqualTo(new Decision.Park(ParkReason.REJECTED,
                "the handler parked it: a person must look at this"));
    }

    @Test
    void parksAMessageThatNoHandlerTakes() throws Exception {
        start(orders, context -> record(context, null));

        channel.basicPublish("", orders.queue(), null, "stray".getBytes(StandardCharsets.UTF_8));

        await().atMost(Patience.WAIT).until(() -> events.parks.size() == 1);
        assertThat(events.parks.get(0).reason()).isEqualTo(ParkReason.NO_HANDLER);
        assertThat(seen).isEmpty();
    }

    @Test
    void keepsTheOriginalUnackedWhileItsRetryCannotBeRoutedAndRetriesOnceItCan() throws Exception {
        channel.queueDelete(orders.tier(1).queue());
        start(orders, context -> {
            record(context, null);
            if (context.attempt() == 1) {
                throw new IllegalStateException("fails once");
            }
        });

        publish("order.created", "hello");

        await().atMost(Patience.WAIT).until(() -> events.republishFailures.size() >= 3);
        assertThat(events.republishFailures.get(0)).contains("returned", "NO_ROUTE");
        assertThat(seen).as("the handler does not run again meanwhile").hasSize(1);
        broker.declare(spec);
        await().atMost(Patience.WAIT).until(() -> events.successes.get() == 1);
        assertThat(seen).extracting(Seen::attempt).containsExactly(1, 2);
        assertThat(events.redeliveries).as("never requeued").isEmpty();
        assertThat(events.parks).isEmpty();
    }

    @Test
    void consumesTheQueueItsServiceKeepsRetriesBackToItAndParksBesideIt() throws Exception {
        Service kept = new Service("orders", "orders@in", orders.routes(), orders.retryPolicy(), orders.queueType());
        Topology keeping = broker.declare(new RetrySpec(spec.javaPackage(), spec.vhost(), EXCHANGE,
                spec.queueSettings(), List.of(kept)));
        try {
            start(kept, context -> {
                record(context, null);
                if (new String(context.body(), StandardCharsets.UTF_8).equals("bad")) {
                    throw new IllegalArgumentException("never");
                }
                if (context.attempt() == 1) {
                    throw new IllegalStateException("not yet");
                }
            });

            publish("order.created", "hello");
            publish("order.created", "bad");

            await().atMost(Patience.WAIT).until(() -> events.successes.get() == 1 && events.parks.size() == 1);
            stopAll();
            assertThat(events.retries).extracting(Tier::queue).containsExactly("orders.retry.1");
            assertThat(count("orders@in")).isZero();
            assertThat(count("orders.parking-lot")).isEqualTo(1);
        } finally {
            broker.deleteQueues(keeping);
        }
    }

    @Test
    void retriesReachOnlyTheServiceThatFailedThem() throws Exception {
        start(orders, context -> {
            record(context, null);
            if (context.attempt() == 1) {
                throw new IllegalStateException("orders fails once");
            }
        });
        start(audit, context -> record(context, null));

        publish("order.created", "hello");

        await().atMost(Patience.WAIT).until(() -> events.successes.get() == 2);
        stopAll();
        assertThat(seen).filteredOn(delivery -> delivery.service().equals("audit")).hasSize(1);
        assertThat(seen).filteredOn(delivery -> delivery.service().equals("orders"))
                .extracting(Seen::attempt).containsExactly(1, 2);
        assertQueues(Map.of());
    }

    @Test
    void stopsOnlyOnceTheDeliveriesInFlightAreAnswered() throws Exception {
        CountDownLatch handling = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        RetryingConsumer consumer = start(orders, context -> {
            handling.countDown();
            release.await();
        });
        publish("order.created", "hello");
        assertThat(handling.await(Patience.WAIT_SECONDS, SECONDS)).isTrue();

        Thread stopper = new Thread(() -> {
            try {
                consumer.stop(Duration.ofSeconds(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        stopper.start();
        stopper.join(300);
        assertThat(stopper.isAlive()).as("stop waits for the delivery in flight").isTrue();
        release.countDown();
        stopper.join(10_000);

        assertThat(stopper.isAlive()).isFalse();
        assertThat(consumer.inFlight()).isZero();
        assertQueues(Map.of(audit.queue(), 1));
    }

    @Test
    void handlesDeliveriesInParallelOnItsConsumersOnceTheyAreNoLongerCautious() throws Exception {
        // Handlers run on the connection's consumer threads: three at once need three of them.
        ExecutorService threads = Executors.newFixedThreadPool(3);
        Connection connection = broker.connectionFactory().newConnection(threads, "three-threads");
        CountDownLatch allThree = new CountDownLatch(3);
        RetryingConsumer consumer = RetryingConsumer.builder(connection, routes(orders, context -> {
            if (new String(context.body(), StandardCharsets.UTF_8).startsWith("together")) {
                allThree.countDown();
                allThree.await();
            }
        })).consumers(3).prefetch(1).listener(events).start();
        consumers.add(consumer);
        for (int i = 0; i < 3; i++) {
            publish("order.created", "alone " + i);
        }
        await().atMost(Patience.WAIT).until(() -> events.successes.get() == 3);

        for (int i = 0; i < 3; i++) {
            publish("order.created", "together " + i);
        }

        assertThat(allThree.await(Patience.WAIT_SECONDS, SECONDS)).as("three deliveries handled at once").isTrue();
        await().atMost(Patience.WAIT).until(() -> events.successes.get() == 6);
        consumer.stop(Duration.ofSeconds(5));
        connection.close();
        threads.shutdown();
    }

    @Test
    void redeliversAMessageWhoseConsumerDiedWhileHandlingIt() throws Exception {
        Connection doomed = broker.connect("doomed");
        CountDownLatch handling = new CountDownLatch(1);
        RetryingConsumer dying = RetryingConsumer.builder(doomed, routes(orders, context -> {
            handling.countDown();
            new CountDownLatch(1).await();
        })).listener(events).start();
        publish("order.created", "hello");
        assertThat(handling.await(Patience.WAIT_SECONDS, SECONDS)).isTrue();

        doomed.abort();
        start(orders, context -> record(context, null));

        Seen delivered = seen.poll(Patience.WAIT_SECONDS, SECONDS);
        assertThat(delivered.attempt()).isEqualTo(1);
        assertThat(events.redeliveries).containsExactly(1);
        stopAll();
        dying.stop(Duration.ofMillis(100));
        assertQueues(Map.of(audit.queue(), 1));
    }

    @Test
    void recoversItsConnectionAndLosesNoDeliveryInFlight() throws Exception {
        SeveringSocketFactory network = new SeveringSocketFactory();
        ConnectionFactory factory = broker.connectionFactory();
        factory.setSocketFactory(network);
        Connection recovering = factory.newConnection("recovering");
        CountDownLatch firstDelivery = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        RetryingConsumer consumer = RetryingConsumer.builder(recovering, routes(orders, context -> {
            record(context, null);
            if (firstDelivery.getCount() > 0) {
                firstDelivery.countDown();
                release.await();
            }
        })).listener(events).start();
        consumers.add(consumer);
        publish("order.created", "hello");
        assertThat(firstDelivery.await(Patience.WAIT_SECONDS, SECONDS)).isTrue();

        network.sever();
        release.countDown();

        await().atMost(Patience.WAIT).until(() -> seen.size() == 2);
        await().atMost(Patience.WAIT).until(() -> consumer.inFlight() == 0);
        assertThat(events.redeliveries).containsExactly(1);
        assertThat(recovering.isOpen()).isTrue();
        stopAll();
        recovering.close();
        assertQueues(Map.of(audit.queue(), 1));
    }

    /**
     * A subscription the client recorded would be subscribed again by the client's own recovery, at its old prefetch,
     * beside the one the consumer makes: its deliveries would go unanswered until that channel closed, and each would
     * come back counted once more.
     */
    @Test
    void leavesTheClientNoSubscriptionToRecover() throws Exception {
        ConnectionFactory factory = broker.connectionFactory();
        factory.setNetworkRecoveryInterval(100);
        SeveringSocketFactory network = new SeveringSocketFactory();
        factory.setSocketFactory(network);
        AutorecoveringConnection recovering = (AutorecoveringConnection) factory.newConnection("recording");
        RetryingConsumer consumer = RetryingConsumer.builder(recovering, routes(orders, context -> record(context, null)))
                .consumers(2).listener(events).start();
        consumers.add(consumer);
        // Enough for the consumers to open from their cautious start, with both subscribed.
        int run = RetryingConsumer.CAUTIOUS_RUN + 2;
        for (int i = 0; i < run; i++) {
            publish("order.created", "before " + i);
        }
        await().atMost(Patience.WAIT).until(() -> seen.size() == run && consumer.consumersRunning() == 2);
        assertThat(recovering.getRecordedConsumers()).isEmpty();

        network.sever();
        for (int i = 0; i < run; i++) {
            publish("order.created", "after " + i);
        }
        await().atMost(Patience.WAIT).until(() -> seen.size() == 2 * run && consumer.consumersRunning() == 2);
        assertThat(recovering.getRecordedConsumers()).isEmpty();
        try (Channel channel = connection.createChannel()) {
            assertThat(channel.queueDeclarePassive(orders.queue()).getConsumerCount()).isEqualTo(2);
        }
        stopAll();
        recovering.close();
    }

    private RetryingConsumer start(Service service, MessageHandler handler) throws IOException {
        RetryingConsumer consumer = RetryingConsumer.builder(connection, routes(service, handler)).listener(events).start();
        consumers.add(consumer);
        return consumer;
    }

    private Routes routes(Service service, MessageHandler handler) {
        Routes.Builder builder = Routes.builder(service);
        for (var route : service.routes()) {
            if (route.payloadType().isPresent()) {
                builder.on(route.key().value(), String.class, (payload, context) -> {
                    record(context, payload);
                });
            } else {
                builder.on(route.key().value(), handler);
            }
        }
        return builder.build();
    }

    private void record(DeliveryContext context, Object payload) {
        seen.add(new Seen(context.service().name(), context.routingKey(), context.attempt(), Instant.now(), payload));
    }

    private void stopAll() throws InterruptedException {
        for (RetryingConsumer consumer : consumers) {
            assertThat(consumer.stop(Duration.ofSeconds(10))).as("stopped with nothing in flight").isTrue();
        }
    }

    private void publish(String routingKey, String body) throws Exception {
        publish(routingKey, body, new AMQP.BasicProperties.Builder().contentType("text/plain").build());
    }

    private void publish(String routingKey, String body, AMQP.BasicProperties properties) throws Exception {
        publish(routingKey, body.getBytes(StandardCharsets.UTF_8), properties);
    }

    private void publish(String routingKey, byte[] body, AMQP.BasicProperties properties) throws Exception {
        channel.basicPublish(EXCHANGE, routingKey, true, properties, body);
        channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
    }

    private long count(String queue) throws IOException {
        return channel.messageCount(queue);
    }

    /** Asserts that every queue of the topology is empty but those given. */
    private void assertQueues(Map<String, Integer> expected) throws IOException {
        for (var queue : topology.queues()) {
            assertThat(count(queue.name())).as("messages in %s", queue.name())
                    .isEqualTo(expected.getOrDefault(queue.name(), 0).longValue());
        }
    }

}
