package io.github.retrytopology.runtime.consumer;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import com.rabbitmq.client.Recoverable;
import com.rabbitmq.client.RecoveryListener;
import com.rabbitmq.client.impl.recovery.RecordedQueue;
import com.rabbitmq.client.impl.recovery.TopologyRecoveryFilter;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.decision.Decision;
import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.topology.Policy;
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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The faults that fault injection and a new user's trial found in the consumer, each reproduced on a real
 * broker: no message lost, none parked before its attempts are spent, nothing spinning.
 */
class ReliabilityIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private static final String EXCHANGE = "test.events";
    private static RetrySpec spec;
    private static Service orders;
    private static Service ledger;

    private final List<RetryingConsumer> consumers = new ArrayList<>();
    private final BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
    private final RecordingListener events = new RecordingListener();
    private Topology topology;
    private Connection connection;
    private Channel channel;

    /** One delivery a handler saw. */
    record Seen(String routingKey, int attempt, Instant at, String body, Instant firstFailure) {
    }

    @BeforeAll
    static void loadSpec() throws IOException {
        spec = Specs.load(Path.of("src/test/resources/specs/reliability.yml"));
        orders = spec.service("orders");
        ledger = spec.service("ledger");
    }

    @BeforeEach
    void declare() throws IOException {
        topology = broker.declare(spec);
        connection = broker.connect("reliability-it");
        channel = connection.createChannel();
        channel.confirmSelect();
    }

    @AfterEach
    void stopAndDelete() throws Exception {
        events.retryGate.countDown();
        for (RetryingConsumer consumer : consumers) {
            consumer.stop(Duration.ofSeconds(5));
        }
        connection.close();
        broker.deleteQueues(topology);
    }

    @Test
    void aParkedMessageDoesNotExpireOutOfTheParkingLotWithItsPublishersExpiration() throws Exception {
        start(orders, context -> {
            record(context);
            throw new ParkMessageException("a person must look at this");
        });

        publish("order.created", "short-lived", properties().expiration("300").build());

        await().atMost(Patience.WAIT).until(() -> events.parks.size() == 1);
        Thread.sleep(600);
        GetResponse parked = channel.basicGet(orders.parkingLot(), true);
        assertThat(parked).as("still parked after its expiration").isNotNull();
        assertThat(parked.getProps().getExpiration()).isNull();
        assertThat(RetryHeaders.of(Received.headers(parked.getProps().getHeaders())).originalExpiration()).hasValue("300");
    }

    @Test
    void aRetryWaitsItsTiersDelayWhateverThePublishersExpiration() throws Exception {
        start(orders, context -> {
            record(context);
            if (context.attempt() == 1) {
                throw new IllegalStateException("not yet");
            }
        });

        publish("order.created", "hurried", properties().expiration("50").build());

        Seen first = seen.poll(Patience.WAIT_SECONDS, SECONDS);
        Seen second = seen.poll(Patience.WAIT_SECONDS, SECONDS);
        assertThat(second.attempt()).isEqualTo(2);
        assertThat(Duration.between(first.at(), second.at())).isGreaterThanOrEqualTo(orders.tier(1).delay());
    }

    @Test
    void aFreshMessageWithCopiedRetryHeadersIsAFirstAttemptOfItsOwnRoutingKey() throws Exception {
        start(orders, context -> {
            record(context);
            if (context.attempt() == 1) {
                throw new IllegalStateException("once");
            }
        });
        Map<String, Object> copied = new HashMap<>();
        copied.put(RetryHeaders.ATTEMPTS, 3);
        copied.put(RetryHeaders.ORIGINAL_ROUTING_KEY, "order.cancelled");
        copied.put(RetryHeaders.ORIGINAL_EXCHANGE, "elsewhere");
        copied.put(RetryHeaders.FIRST_FAILURE, "2020-01-01T00:00:00Z");
        copied.put(RetryHeaders.PARK_REASON, "attempts-exhausted");

        publish("order.created", "copied", properties().headers(copied).build());

        Seen first = seen.poll(Patience.WAIT_SECONDS, SECONDS);
        Seen second = seen.poll(Patience.WAIT_SECONDS, SECONDS);
        assertThat(List.of(first, second)).extracting(Seen::routingKey, Seen::attempt)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("order.created", 1),
                        org.assertj.core.groups.Tuple.tuple("order.created", 2));
        assertThat(first.firstFailure()).isNull();
        assertThat(second.firstFailure()).isAfter(Instant.parse("2026-01-01T00:00:00Z"));
        await().atMost(Patience.WAIT).until(() -> events.successes.get() == 1);
        assertThat(events.parks).isEmpty();
    }

    @Test
    void aRefusedRepublishIsRetriedWithoutRunningTheHandlerAgainOrParkingTheMessage() throws Exception {
        Map<String, AtomicInteger> handled = new ConcurrentHashMap<>();
        start(orders, context -> {
            record(context);
            handled.computeIfAbsent(context.messageId().orElseThrow(), id -> new AtomicInteger()).incrementAndGet();
            if (context.attempt() == 1) {
                throw new IllegalStateException("once");
            }
        });
        Policy tierPolicy = topology.policies().stream()
                .filter(policy -> policy.name().equals(orders.tier(1).queue())).findFirst().orElseThrow();
        Map<String, Object> full = new LinkedHashMap<>(tierPolicy.definition());
        full.put("max-length", 0);
        broker.management().putPolicy(broker.name(), new Policy(tierPolicy.name(), tierPolicy.pattern(),
                tierPolicy.applyTo(), tierPolicy.priority(), full));

        for (int i = 0; i < 20; i++) {
            publish("order.created", "refused-" + i, properties().messageId("m-" + i).build());
        }
        await().atMost(Patience.WAIT).until(() -> events.republishFailures.size() >= 20);
        Thread.sleep(1_000);
        // As an operator raises the limit. (Taking it off would not do on RabbitMQ 3.10: a quorum queue keeps
        // refusing until a limit lets it take messages again, rabbitmq-server#12206.)
        full.put("max-length", 1_000_000);
        broker.management().putPolicy(broker.name(), new Policy(tierPolicy.name(), tierPolicy.pattern(),
                tierPolicy.applyTo(), tierPolicy.priority(), full));

        await().atMost(Patience.WAIT).until(() -> events.successes.get() == 20);
        assertThat(events.parks).isEmpty();
        assertThat(channel.messageCount(orders.parkingLot())).isZero();
        assertThat(handled).hasSize(20).allSatisfy((id, count) -> assertThat(count).as(id).hasValue(2));
    }

    @Test
    void aDeliveryWaitingForItsRepublishIsNotAcknowledgedWithTheDeliveriesAfterIt() throws Exception {
        // Settled retries are acknowledged together, with multiple set: none may cover an earlier delivery whose
        // republish the broker has not taken, or a lost connection would lose it.
        ConnectionFactory factory = broker.connectionFactory();
        factory.setAutomaticRecoveryEnabled(false);
        Connection own = factory.newConnection("reliability-it-held");
        consumers.add(RetryingConsumer.builder(own, routes(orders, context -> {
            String body = new String(context.body(), StandardCharsets.UTF_8);
            if (body.equals("held")) {
                throw new ParkMessageException("to a parking lot that is gone");
            }
            if (body.startsWith("retried") && context.attempt() == 1) {
                throw new IllegalStateException("once");
            }
        })).listener(events).start());
        for (int i = 0; i < 20; i++) {
            publish("order.created", "opening-" + i, properties().build()); // past the consumers' cautious start
        }
        await().atMost(Patience.WAIT).until(() -> events.successes.get() == 20);
        channel.queueDelete(orders.parkingLot());

        publish("order.created", "held", properties().build());
        await().atMost(Patience.WAIT).until(() -> !events.republishFailures.isEmpty());
        for (int i = 0; i < 50; i++) {
            publish("order.created", "retried-" + i, properties().build());
        }
        await().atMost(Patience.WAIT).until(() -> events.retries.size() == 50);
        own.abort();

        // The broker gives back what the consumer held: the delivery still waiting for its republish.
        List<String> back = new ArrayList<>();
        await().atMost(Patience.WAIT).until(() -> {
            GetResponse response = channel.basicGet(orders.queue(), true);
            if (response != null) {
                back.add(new String(response.getBody(), StandardCharsets.UTF_8));
            }
            return back.contains("held");
        });
    }

    @Test
    void aRetryToAMissingTierQueueWaitsInsteadOfSpinning() throws Exception {
        AtomicInteger handled = new AtomicInteger();
        start(ledger, context -> {
            handled.incrementAndGet();
            if (context.attempt() == 1) {
                throw new IllegalStateException("once");
            }
        });
        channel.queueDelete(ledger.tier(1).queue());

        publish("ledger.entry", "entry", properties().build());
        await().atMost(Patience.WAIT).until(() -> !events.republishFailures.isEmpty());
        Thread.sleep(1_000);
        assertThat(handled).as("handler runs while the tier queue is missing").hasValue(1);

        broker.declare(spec);
        await().atMost(Patience.WAIT).until(() -> events.successes.get() == 1);
        assertThat(handled).hasValue(2);
    }

    @Test
    void aHandlerThatRewritesTheHeadersCannotChangeTheDecision() throws Exception {
        start(orders, context -> {
            record(context);
            try {
                context.properties().getHeaders().clear();
            } catch (UnsupportedOperationException | NullPointerException expected) {
                // the headers are the handler's to read, not to change
            }
            throw new IllegalStateException("fails every time");
        });

        publish("order.created", "stubborn", properties().headers(Map.of("tenant", "acme")).build());

        await().atMost(Patience.WAIT).until(() -> events.parks.size() == 1);
        assertThat(events.parks.get(0).reason()).isEqualTo(ParkReason.ATTEMPTS_EXHAUSTED);
        assertThat(seen).extracting(Seen::routingKey, Seen::attempt).containsExactly(
                org.assertj.core.groups.Tuple.tuple("order.created", 1),
                org.assertj.core.groups.Tuple.tuple("order.created", 2),
                org.assertj.core.groups.Tuple.tuple("order.created", 3),
                org.assertj.core.groups.Tuple.tuple("order.created", 4));
    }

    @Test
    void listenersAndAcksRunOffTheConnectionsThreadSoASlowListenerStallsNoOtherChannel() throws Exception {
        events.retryGate = new CountDownLatch(1);
        start(orders, context -> {
            record(context);
            if (context.body().length == 4) {
                throw new IllegalStateException("fail");
            }
        });
        RetryingConsumer other = RetryingConsumer.builder(connection, routes(ledger, context -> record(context)))
                .listener(events).start();
        consumers.add(other);

        publish("order.created", "fail", properties().build());
        await().atMost(Patience.WAIT).until(() -> events.retries.size() == 1);
        publish("ledger.entry", "succeed", properties().build());

        await().atMost(Patience.WAIT).until(() -> events.successes.get() == 1);
        events.retryGate.countDown();
        assertThat(events.threads).noneMatch(thread -> thread.startsWith("AMQP Connection"));
    }

    /**
     * The consumer subscribes again while the queue is declared anew. RabbitMQ 3.10 may take a {@code basic.consume}
     * that arrives between a quorum queue's record and its Raft member: the channel crashes ({@code badmatch
     * {error,noproc}} in {@code rabbit_quorum_queue:consume/3}) and the broker closes the whole connection with
     * {@code INTERNAL_ERROR}; the consumer then recovers with it. So the test publishes on a connection of its own,
     * and the consumer's story may hold that loss between the cancel and the last restore.
     */
    @Test
    void aConsumerThatTheBrokerCancelsSubscribesAgain() throws Exception {
        RetryingConsumer consumer = start(orders, context -> record(context));
        channel.queueDelete(orders.queue());
        await().atMost(Patience.WAIT).until(() -> !events.consumers.isEmpty());
        assertThat(consumer.isRunning()).isFalse();
        broker.declare(spec);

        try (Connection publisher = broker.connect("reliability-it-publisher")) {
            Channel publishing = publisher.createChannel();
            publishing.confirmSelect();
            publishing.basicPublish(EXCHANGE, "order.created", true, properties().build(),
                    "after".getBytes(StandardCharsets.UTF_8));
            publishing.waitForConfirmsOrDie(Patience.WAIT.toMillis());
        }

        assertThat(seen.poll(Patience.WAIT_SECONDS, SECONDS)).as("delivered after the queue came back").isNotNull();
        await().atMost(Patience.WAIT).until(() -> consumer.isRunning()
                && events.consumers.get(events.consumers.size() - 1).equals("restored"));
        assertThat(events.consumers).first().isEqualTo("lost: the broker cancelled it (was orders deleted, or did its "
                + "leader move?)");
        assertThat(events.consumers).filteredOn(event -> event.startsWith("lost: "))
                .allMatch(event -> event.startsWith("lost: the broker cancelled it")
                        || event.contains("INTERNAL_ERROR"), "a cancel, or the broker's crash of the connection");
    }

    /**
     * RabbitMQ 3.10 neither cancels nor serves a consumer of a quorum queue that is deleted and declared again at
     * once: the new queue hands it deliveries that never arrive. Once messages wait beyond them, the consumer
     * notices and subscribes again.
     */
    @Test
    void aConsumerOfAQueueDeletedAndDeclaredAgainAtOnceSubscribesAgain() throws Exception {
        start(orders, context -> record(context));
        channel.queueDelete(orders.queue());
        channel.queueDeclare(orders.queue(), true, false, false, topology.queue(orders.queue()).arguments());
        broker.declare(spec);

        publish("order.created", "first", properties().build());
        publish("order.created", "second", properties().build());

        assertThat(seen.poll(Patience.WAIT_SECONDS, SECONDS)).as("delivered after the queue came back").isNotNull();
        assertThat(seen.poll(Patience.WAIT_SECONDS, SECONDS)).as("both delivered").isNotNull();
        await().atMost(Patience.WAIT).until(() -> events.consumers.contains("restored"));
        assertThat(events.consumers).hasSize(2).first().asString().satisfiesAnyOf(
                lost -> assertThat(lost).startsWith("lost: the broker cancelled it"),
                lost -> assertThat(lost).startsWith("lost: received nothing for 5 s while"));
        assertThat(events.consumers).last().isEqualTo("restored");
    }

    @Test
    void aFailureOfADeliveryFromALostConnectionIsNotRepublishedOnTheRecoveredOne() throws Exception {
        SeveringSocketFactory network = new SeveringSocketFactory();
        ConnectionFactory factory = broker.connectionFactory();
        factory.setSocketFactory(network);
        Connection recovering = factory.newConnection("recovering");
        CountDownLatch recovered = new CountDownLatch(1);
        ((Recoverable) recovering).addRecoveryListener(new RecoveryListener() {
            @Override
            public void handleRecovery(Recoverable recoverable) {
                recovered.countDown();
            }

            @Override
            public void handleRecoveryStarted(Recoverable recoverable) {
            }
        });
        CountDownLatch handling = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        RetryingConsumer consumer = RetryingConsumer.builder(recovering, routes(orders, context -> {
            record(context);
            if (handling.getCount() > 0) {
                handling.countDown();
                release.await();
            }
            if (context.attempt() == 1) {
                throw new IllegalStateException("fails on its first attempt");
            }
        })).listener(events).start();
        consumers.add(consumer);
        publish("order.created", "once", properties().build());
        assertThat(handling.await(Patience.WAIT_SECONDS, SECONDS)).isTrue();

        network.sever();
        assertThat(recovered.await(Patience.WAIT_SECONDS, SECONDS)).isTrue();
        release.countDown();

        await().atMost(Patience.WAIT).until(() -> events.successes.get() >= 1);
        Thread.sleep(1_000);
        assertThat(events.successes).as("handled to success once").hasValue(1);
        consumer.stop(Duration.ofSeconds(5));
        recovering.close();
    }

    /**
     * The Java client recovers a connection's channels, then its recorded queues, bindings and consumers. A
     * consumer that subscribed again as soon as its channel was back would be recorded in time to be recovered a
     * second time under the same tag, which the broker answers by closing the connection (530 NOT_ALLOWED, "attempt
     * to reuse consumer tag"). Here the client takes its time over a recorded queue, as over many.
     */
    @Test
    void aConsumerSubscribesAgainOnlyOnceItsConnectionHasRecovered() throws Exception {
        SeveringSocketFactory network = new SeveringSocketFactory();
        ConnectionFactory factory = broker.connectionFactory();
        factory.setSocketFactory(network);
        factory.setTopologyRecoveryFilter(new TopologyRecoveryFilter() {
            @Override
            public boolean filterQueue(RecordedQueue queue) {
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return true;
            }
        });
        Connection recovering = factory.newConnection("recovering-slowly");
        List<String> closed = new java.util.concurrent.CopyOnWriteArrayList<>();
        recovering.addShutdownListener(cause -> closed.add(cause.getMessage()));
        CountDownLatch recovered = new CountDownLatch(1);
        ((Recoverable) recovering).addRecoveryListener(new RecoveryListener() {
            @Override
            public void handleRecovery(Recoverable recoverable) {
                recovered.countDown();
            }

            @Override
            public void handleRecoveryStarted(Recoverable recoverable) {
            }
        });
        recovering.createChannel().queueDeclare();
        RetryingConsumer consumer = RetryingConsumer.builder(recovering, routes(orders, context -> record(context)))
                .listener(events).start();
        consumers.add(consumer);
        publish("order.created", "before", properties().build());
        assertThat(seen.poll(Patience.WAIT_SECONDS, SECONDS)).isNotNull();

        network.sever();
        assertThat(recovered.await(Patience.WAIT_SECONDS, SECONDS)).isTrue();
        await().atMost(Patience.WAIT).until(() -> events.consumers.contains("restored"));
        publish("order.created", "after", properties().build());

        assertThat(seen.poll(Patience.WAIT_SECONDS, SECONDS)).as("delivered after the recovery").isNotNull();
        assertThat(closed).as("why the connection closed").hasSize(1);
        assertThat(recovering.isOpen()).isTrue();
        consumer.stop(Duration.ofSeconds(5));
        recovering.close();
    }

    /**
     * A delivery that fails outside its handler goes back to its queue as a failed delivery: RabbitMQ 4.3 counts a
     * reject toward the delivery limit, and not a nack, so a message that always fails there is parked by the
     * broker after {@code maxAttempts} deliveries instead of coming back for ever.
     */
    @Test
    void aDeliveryThatFailsOutsideItsHandlerIsParkedByTheDeliveryLimitNotRequeuedForEver() throws Exception {
        List<Long> deliveries = new java.util.concurrent.CopyOnWriteArrayList<>();
        RetryingConsumer consumer = RetryingConsumer.builder(connection, routes(orders, context -> { }))
                .observer(context -> {
                    deliveries.add(System.nanoTime());
                    throw new NoClassDefFoundError("io/opentelemetry/api/trace/Span");
                })
                .start();
        consumers.add(consumer);

        publish("order.created", "unlucky", properties().build());

        await().atMost(Patience.WAIT).until(() -> channel.messageCount(orders.parkingLot()) == 1);
        GetResponse parked = channel.basicGet(orders.parkingLot(), true);
        assertThat(new String(parked.getBody(), StandardCharsets.UTF_8)).isEqualTo("unlucky");
        assertThat(RetryHeaders.of(Received.headers(parked.getProps().getHeaders())).deaths()).first()
                .extracting(RetryHeaders.Death::reason).isEqualTo("delivery_limit");
        assertThat(deliveries).hasSize(orders.retryPolicy().maxAttempts());
        for (int i = 1; i < deliveries.size(); i++) {
            long pauseMillis = (deliveries.get(i) - deliveries.get(i - 1)) / 1_000_000;
            assertThat(pauseMillis).as("the pause before delivery %d: a back-off, not a spin", i + 1)
                    .isGreaterThanOrEqualTo(100L << (i - 1));
        }
    }

    /**
     * A message whose attempt count is as high as an int goes (a publisher that wrote it into a message that then
     * went through a tier) is on its last attempt: it is parked, its handler's observation hears how it ended, and
     * nothing overflows into a delivery that comes back for ever.
     */
    @Test
    void aTrustedAttemptCountAtTheLargestIntIsTheLastAttempt() throws Exception {
        AtomicInteger handled = new AtomicInteger();
        List<String> observed = new java.util.concurrent.CopyOnWriteArrayList<>();
        RetryingConsumer consumer = RetryingConsumer.builder(connection, routes(orders, context -> {
            handled.incrementAndGet();
            throw new IllegalStateException("fails");
        })).observer(context -> {
            observed.add("handling attempt " + context.attempt());
            return (outcome, failure) -> observed.add("finished: " + outcome.id());
        }).listener(events).start();
        consumers.add(consumer);
        Map<String, Object> headers = new HashMap<>();
        headers.put(RetryHeaders.ATTEMPTS, Integer.MAX_VALUE);
        headers.put(RetryHeaders.ORIGINAL_EXCHANGE, EXCHANGE);
        headers.put(RetryHeaders.ORIGINAL_ROUTING_KEY, "order.created");

        // Through the service's own tier, where such headers are trusted.
        channel.basicPublish("", orders.tier(1).queue(), true, properties().headers(headers).build(),
                "last".getBytes(StandardCharsets.UTF_8));
        channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());

        await().atMost(Patience.WAIT).until(() -> channel.messageCount(orders.parkingLot()) == 1);
        GetResponse parked = channel.basicGet(orders.parkingLot(), true);
        assertThat(RetryHeaders.of(Received.headers(parked.getProps().getHeaders())).parkReason()).hasValue(ParkReason.ATTEMPTS_EXHAUSTED);
        assertThat(handled).hasValue(1);
        assertThat(observed).containsExactly("handling attempt 2147483647", "finished: park");
    }

    /**
     * A message whose publisher's headers leave no room in a frame for the failure's cannot be republished as it is,
     * now or ever: it is parked, body and properties whole, its largest headers dropped and named, instead of its
     * republish being sent again for ever (the client refuses it), or coming back from its tier in a frame that no
     * client reads, the broker's dead-letter headers added (which breaks the consumer's connection).
     */
    @ParameterizedTest(name = "room left by the publisher''s headers: {0} bytes")
    @ValueSource(ints = {300, 800})
    void aMessageWhoseHeadersLeaveNoRoomForTheFailuresIsParkedWithoutThemNotRetriedForEver(int room) throws Exception {
        RetryingConsumer consumer = start(orders, context -> {
            throw new IllegalStateException("fails, with a message to record: " + "x".repeat(500));
        });
        int frame = connection.getFrameMax() == 0 ? 131_072 : connection.getFrameMax();
        Map<String, Object> headers = Map.of("padding", "p".repeat(frame - room), "tenant", "acme");

        publish("order.created", "crowded", properties().messageId("crowded-1").headers(headers).build());

        await().atMost(Patience.WAIT).until(() -> channel.messageCount(orders.parkingLot()) == 1);
        GetResponse parked = channel.basicGet(orders.parkingLot(), true);
        assertThat(new String(parked.getBody(), StandardCharsets.UTF_8)).isEqualTo("crowded");
        assertThat(parked.getProps().getMessageId()).isEqualTo("crowded-1");
        Map<String, Object> parkedHeaders = parked.getProps().getHeaders();
        assertThat(parkedHeaders).doesNotContainKey("padding");
        assertThat(parkedHeaders.get("tenant")).hasToString("acme");
        assertThat(parkedHeaders.get(RetryHeaders.DROPPED_HEADERS).toString())
                .matches("\\[padding \\(\\d+ bytes\\)\\]");
        assertThat(RetryHeaders.of(Received.headers(parkedHeaders)).parkReason()).hasValue(ParkReason.UNPUBLISHABLE);
        assertThat(events.parks).singleElement().extracting(Decision.Park::reason).isEqualTo(ParkReason.UNPUBLISHABLE);
        assertThat(consumer.inFlight()).isZero();
    }

    @Test
    void stoppingReturnsTheDeliveriesNotYetStartedAtOnce() throws Exception {
        AtomicInteger slowHandled = new AtomicInteger();
        CountDownLatch slowStarted = new CountDownLatch(1);
        RetryingConsumer consumer = start(orders, context -> {
            if (new String(context.body(), StandardCharsets.UTF_8).startsWith("slow")) {
                slowStarted.countDown();
                slowHandled.incrementAndGet();
                Thread.sleep(300);
            } else {
                events.successes.incrementAndGet();
            }
        });
        for (int i = 0; i < 40; i++) {
            publish("order.created", "quick-" + i, properties().build());
        }
        await().atMost(Patience.WAIT).until(() -> events.successes.get() >= 40);
        for (int i = 0; i < 10; i++) {
            publish("order.created", "slow-" + i, properties().build());
        }
        assertThat(slowStarted.await(Patience.WAIT_SECONDS, SECONDS)).isTrue();

        assertThat(consumer.stop(Duration.ofSeconds(10))).isTrue();

        assertThat(slowHandled.get()).as("handlers run after stop was called").isLessThanOrEqualTo(2);
        await().atMost(Patience.WAIT).until(() -> channel.messageCount(orders.queue()) + slowHandled.get() == 10);
    }

    /**
     * RabbitMQ 3.10 to 4.2 count every return toward a quorum queue's delivery limit, a nack included. A stop that
     * gave deliveries back while other consumers were still subscribed had those take them and give them back
     * again: {@code ShutdownIT} found two messages parked by one stop on RabbitMQ 4.0.5.
     */
    @Test
    void oneStopReturnsEachDeliveryOnceWhateverTheNumberOfConsumers() throws Exception {
        AtomicInteger handled = new AtomicInteger();
        RetryingConsumer consumer = RetryingConsumer.builder(connection, routes(orders, context -> {
            handled.incrementAndGet();
            Thread.sleep(2);
        })).consumers(8).prefetch(50).listener(events).start();
        consumers.add(consumer);
        int messages = 2_000;
        for (int i = 0; i < messages; i++) {
            channel.basicPublish(EXCHANGE, "order.created", true, properties().build(),
                    ("order-" + i).getBytes(StandardCharsets.UTF_8));
        }
        channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
        await().atMost(Patience.WAIT).until(() -> handled.get() >= 200);

        assertThat(consumer.stop(Duration.ofSeconds(10))).isTrue();

        Map<Integer, Integer> byReturns = new HashMap<>();
        int left = 0;
        for (GetResponse response = channel.basicGet(orders.queue(), true); response != null;
                response = channel.basicGet(orders.queue(), true)) {
            byReturns.merge(RetryHeaders.of(Received.headers(response.getProps().getHeaders())).deliveryCount(), 1, Integer::sum);
            left++;
        }
        assertThat(byReturns.keySet()).as("messages by their returns counted by the broker: %s", byReturns)
                .allMatch(returns -> returns <= 1);
        assertThat(channel.messageCount(orders.parkingLot())).isZero();
        assertThat(handled.get() + left).isEqualTo(messages);
    }

    private RetryingConsumer start(Service service, MessageHandler handler) throws IOException {
        RetryingConsumer consumer = RetryingConsumer.builder(connection, routes(service, handler)).listener(events)
                .start();
        consumers.add(consumer);
        return consumer;
    }

    private static Routes routes(Service service, MessageHandler handler) {
        Routes.Builder builder = Routes.builder(service);
        service.routes().forEach(route -> builder.on(route.key().value(), handler));
        return builder.build();
    }

    private void record(DeliveryContext context) {
        seen.add(new Seen(context.routingKey(), context.attempt(), Instant.now(),
                new String(context.body(), StandardCharsets.UTF_8), context.firstFailure().orElse(null)));
    }

    private static AMQP.BasicProperties.Builder properties() {
        return new AMQP.BasicProperties.Builder().contentType("text/plain");
    }

    private void publish(String routingKey, String body, AMQP.BasicProperties properties) throws Exception {
        channel.basicPublish(EXCHANGE, routingKey, true, properties, body.getBytes(StandardCharsets.UTF_8));
        channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
    }
}
