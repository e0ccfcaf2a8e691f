package io.github.retrytopology.it.amqp10;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.amqp.BackOffDelayPolicy;
import com.rabbitmq.client.amqp.Environment;
import com.rabbitmq.client.amqp.impl.AmqpEnvironmentBuilder;
import io.github.retrytopology.it.amqp10.billing.InvoicesHandler;
import io.github.retrytopology.it.amqp10.billing.RetryTopology;
import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.model.headers.Header;
import io.github.retrytopology.model.topology.BrokerVersion;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.consumer.Amqp10RetryingConsumer;
import io.github.retrytopology.runtime.consumer.MessageHandler;
import io.github.retrytopology.runtime.parkinglot.FailureGroup;
import io.github.retrytopology.runtime.parkinglot.ParkedMessage;
import io.github.retrytopology.runtime.parkinglot.ParkingLot;
import io.github.retrytopology.runtime.parkinglot.ReplayFilter;
import io.github.retrytopology.runtime.parkinglot.ReplayOptions;
import io.github.retrytopology.runtime.parkinglot.ReplayReport;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The parking lot of a service consumed over AMQP 1.0 ({@code specs/billing-amqp10.yml}), as an operator works it
 * with {@link ParkingLot}, over AMQP 0.9.1, as the console does: the consumer parks messages whose attempts are spent
 * and one that is not retryable, with its failure headers as AMQP 1.0 application properties, and the broker parks
 * one by its delivery limit after its consumer's connection was lost on its last attempt; the parking lot lists them
 * with those headers, groups them, replays two groups to the service, whose consumer takes each as a fresh message,
 * and purges the last. Runs on RabbitMQ 4.3.1 and later only.
 */
class Amqp10ParkingLotIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private static final String EXCHANGE = RetryTopology.EXCHANGE;
    private static final String ROUTING_KEY = "invoice.issued";
    private static final String CONSUMER = "amqp10-invoices";
    /** What the handler throws while the ledger is down, for invoices whose attempts then run out. */
    private static final String LEDGER_DOWN = "ledger timed out after 1500 ms for invoice ";

    private static BrokerVersion version;
    private static Environment environment;

    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private volatile MessageHandler behaviour = context -> { };
    private Topology topology;
    private com.rabbitmq.client.Connection publishing;
    private Channel channel;
    private com.rabbitmq.client.amqp.Connection connection;
    private Amqp10RetryingConsumer consumer;

    /** One delivery the handler saw, as its context gave it. */
    record Seen(String id, int attempt, Optional<Instant> firstFailure, String exchange, String routingKey,
            Map<String, Object> headers) {
    }

    @BeforeAll
    static void environment() throws IOException {
        version = broker.broker().version();
        if (version.atLeast(BrokerVersion.DELAYED_RETRY)) {
            environment = new AmqpEnvironmentBuilder().build();
        }
    }

    @AfterAll
    static void closeEnvironment() {
        if (environment != null) {
            try {
                environment.close();
            } catch (RejectedExecutionException late) {
                // amqp-client 1.5.0 shuts its recovery executor down before the event loop that runs on it, whose
                // close may then be refused (rabbitmq-amqp-java-client#463): the connections are closed by then.
            }
        }
    }

    /** Each test, rather than the class, is skipped before 4.3.1, so that the reports count them as skipped. */
    @BeforeEach
    void importDefinitionsAndConnect() throws IOException {
        assumeTrue(version.atLeast(BrokerVersion.DELAYED_RETRY),
                "RabbitMQ " + version + " does not hold a retry until its delivery time (4.3.1 and later)");
        try (InputStream in = RetryTopology.class.getResourceAsStream(RetryTopology.VHOST_DEFINITIONS)) {
            broker.management().importDefinitions(broker.name(), new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        topology = Topology.of(RetryTopology.SPEC.inVhost(broker.name()));
        publishing = broker.connect("amqp10-parking-lot-it");
        channel = publishing.createChannel();
        channel.confirmSelect();
        connection = environment.connectionBuilder().uri(broker.broker().amqpUri(broker.name())).name(CONSUMER)
                .recovery().backOffDelayPolicy(BackOffDelayPolicy.fixed(Duration.ofMillis(100))).connectionBuilder()
                .build();
        consumer = Amqp10RetryingConsumer.builder(connection, InvoicesHandler.routes(context -> {
            seen.add(new Seen(context.messageId().orElse("?"), context.attempt(), context.firstFailure(),
                    context.exchange(), context.routingKey(), context.properties().getHeaders()));
            behaviour.handle(context);
        })).start();
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
    void listsGroupsReplaysAndPurgesWhatTheAmqp10ConsumerAndTheBrokerParked() throws Exception {
        ParkingLot lot = ParkingLot.of(publishing, RetryTopology.INVOICES);
        // given: the ledger is down; inv-3 can never be handled.
        behaviour = context -> {
            String id = context.messageId().orElseThrow();
            if (id.equals("inv-3")) {
                throw new IllegalArgumentException("invoice inv-3 has no customer");
            }
            throw new IllegalStateException(LEDGER_DOWN + id);
        };
        for (String id : List.of("inv-1", "inv-2", "inv-3")) {
            publish(id, Map.of("tenant", "acme"));
        }
        await().atMost(Patience.WAIT).until(() -> lot.count() == 3);
        // inv-4 fails twice, and its consumer's connection is lost on its last attempt: the broker parks it.
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch lost = new CountDownLatch(1);
        MessageHandler ledgerDown = behaviour;
        behaviour = context -> {
            if (context.attempt() == RetryTopology.Invoices.MAX_ATTEMPTS) {
                holding.countDown();
                lost.await();
                return;
            }
            ledgerDown.handle(context);
        };
        publish("inv-4", Map.of("tenant", "acme"));
        assertThat(holding.await(Patience.WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        // The management API lists a connection a moment after it opens.
        await().atMost(Patience.WAIT).until(() -> broker.management().closeConnections(broker.name(), CONSUMER) == 1);
        await().atMost(Patience.WAIT).until(() -> lot.count() == 4);
        lost.countDown();

        // then: the parking lot lists each with what the AMQP 1.0 consumer wrote, or the broker's x-death.
        Map<String, ParkedMessage> listed = lot.list(10).stream()
                .collect(Collectors.toMap(ParkedMessage::id, Function.identity()));
        assertThat(listed).containsOnlyKeys("inv-1", "inv-2", "inv-3", "inv-4");
        for (String id : List.of("inv-1", "inv-2")) {
            ParkedMessage exhausted = listed.get(id);
            assertThat(exhausted.reason()).hasValue(ParkReason.ATTEMPTS_EXHAUSTED);
            assertThat(exhausted.attempts()).isEqualTo(RetryTopology.Invoices.MAX_ATTEMPTS);
            assertThat(exhausted.exception()).hasValue(IllegalStateException.class.getName());
            assertThat(exhausted.exceptionMessage()).hasValue(LEDGER_DOWN + id);
            // The first failure's time, which the consumer kept in an annotation through the retries, and the last.
            Instant first = exhausted.headers().firstFailure().orElseThrow();
            Instant last = exhausted.headers().lastFailure().orElseThrow();
            // The broker held the retries for the two delays, never less; the first failure's time is read a moment
            // after its retry's delivery time is set.
            assertThat(Duration.between(first, last)).as("the two delays between the first and the last failure")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(390));
            assertThat(exhausted.parkedAt()).hasValue(last);
            assertThat(exhausted.headers().originalExchange()).hasValue(EXCHANGE);
            assertThat(exhausted.routingKey()).hasValue(ROUTING_KEY);
            assertThat(exhausted.failures()).singleElement().asString()
                    .startsWith("attempt 3 at " + last + ": " + IllegalStateException.class.getName());
            assertThat(exhausted.properties().contentType()).isEqualTo("text/plain");
            assertThat(exhausted.properties().headers()).containsEntry("tenant", "acme");
            // An application property of type int reads over AMQP 0.9.1 as a signed 32-bit integer.
            assertThat(exhausted.properties().headers().get(Header.ATTEMPTS.name())).isEqualTo(3);
            assertThat(exhausted.headers().originalExpiration()).as("published without one").isEmpty();
        }
        ParkedMessage refused = listed.get("inv-3");
        assertThat(refused.reason()).hasValue(ParkReason.NON_RETRYABLE);
        assertThat(refused.attempts()).isEqualTo(1);
        assertThat(refused.exception()).hasValue(IllegalArgumentException.class.getName());
        assertThat(refused.headers().firstFailure()).isPresent();
        assertThat(refused.headers().lastFailure()).isEqualTo(refused.headers().firstFailure());
        assertThat(refused.headers().originalExchange()).hasValue(EXCHANGE);
        assertThat(refused.routingKey()).hasValue(ROUTING_KEY);
        ParkedMessage crashed = listed.get("inv-4");
        assertThat(crashed.reason()).hasValue(ParkReason.DELIVERY_LIMIT);
        assertThat(crashed.brokerReason()).hasValue("delivery_limit");
        assertThat(crashed.exception()).isEmpty();
        assertThat(crashed.routingKey()).as("from x-death").hasValue(ROUTING_KEY);
        assertThat(crashed.parkedAt()).isPresent();
        assertThat(crashed.properties().headers()).containsEntry("tenant", "acme");

        // and groups them by failure.
        List<FailureGroup> groups = lot.groups(100).groups();
        assertThat(groups).extracting(group -> group.failure().reason().orElseThrow(), FailureGroup::count)
                .containsExactlyInAnyOrder(tuple("attempts-exhausted", 2L), tuple("non-retryable", 1L),
                        tuple("delivery-limit", 1L));
        FailureGroup ledger = group(groups, "attempts-exhausted");
        assertThat(ledger.failure().message()).hasValue(LEDGER_DOWN.replace("1500", "#") + "inv-#");
        FailureGroup crashes = group(groups, "delivery-limit");

        // when: the ledger is back (inv-4 fails once more), and an operator replays the ledger's group, then the
        // broker's.
        seen.clear();
        behaviour = context -> {
            if (context.messageId().orElseThrow().equals("inv-4") && context.attempt() == 1) {
                throw new IllegalStateException(LEDGER_DOWN + "inv-4");
            }
        };
        Instant replayed = Instant.now();
        ReplayReport ledgerReplay = lot.replay(ReplayFilter.all().failure(ledger.key()),
                ReplayOptions.limit(10).replayedBy("on-call (Amqp10ParkingLotIT)"));
        assertThat(ledgerReplay.replayed()).isEqualTo(2);
        ReplayReport crashReplay = lot.replay(ReplayFilter.all().failure(crashes.key()), ReplayOptions.limit(10));
        assertThat(crashReplay.replayed()).isEqualTo(1);

        // then: the consumer takes each as a fresh message, as the AMQP 0.9.1 consumer takes a replayed one: attempt
        // 1, no first failure, from the exchange and with the routing key it was first published with.
        await().atMost(Patience.WAIT).until(() -> seen.size() == 4 && consumer.inFlight() == 0);
        assertThat(seen).extracting(Seen::id, Seen::attempt).containsExactlyInAnyOrder(tuple("inv-1", 1),
                tuple("inv-2", 1), tuple("inv-4", 1), tuple("inv-4", 2));
        List<Seen> fresh = seen.stream().filter(delivery -> delivery.attempt() == 1).toList();
        assertThat(fresh).allSatisfy(delivery -> {
            assertThat(delivery.firstFailure()).as("%s's first failure", delivery.id()).isEmpty();
            assertThat(delivery.exchange()).isEqualTo(EXCHANGE);
            assertThat(delivery.routingKey()).isEqualTo(ROUTING_KEY);
            assertThat(delivery.headers()).containsEntry("tenant", "acme")
                    .containsEntry(Header.REPLAYS.name(), 1)
                    .doesNotContainKeys(Header.ATTEMPTS.name(), Header.EXCEPTION.name(), Header.PARK_REASON.name(),
                            Header.ORIGINAL_EXPIRATION.name());
        });
        assertThat(fresh).filteredOn(delivery -> !delivery.id().equals("inv-4")).allSatisfy(delivery -> assertThat(
                delivery.headers()).containsEntry(Header.REPLAYED_BY.name(), "on-call (Amqp10ParkingLotIT)"));
        Seen retried = seen.stream().filter(delivery -> delivery.attempt() == 2).findFirst().orElseThrow();
        assertThat(retried.firstFailure()).as("the failure after the replay, not one from before it")
                .hasValueSatisfying(first -> assertThat(first).isAfterOrEqualTo(replayed.minusMillis(1)));

        // and the last group, the one no handler will take, is purged.
        assertThat(lot.groups(100).groups()).extracting(group -> group.failure().reason().orElseThrow())
                .containsExactly("non-retryable");
        assertThat(lot.purge()).isEqualTo(1);
        assertThat(lot.count()).isZero();
        assertThat(channel.messageCount(RetryTopology.Invoices.QUEUE)).isZero();
    }

    /**
     * What RabbitMQ 4.3.6 hands an AMQP 1.0 consumer of a publisher's AMQP 0.9.1 headers, and so what its parked copy,
     * read over AMQP 0.9.1 again, keeps: text, numbers and flags as they were; a timestamp as the number of its
     * milliseconds (the AMQP 1.0 client reads a timestamp as a {@code Long}); a header whose name starts with
     * {@code x-}, which the broker hands over as a message annotation, whatever its value; but neither arrays nor
     * tables under any other name, which an AMQP 1.0 message's application properties cannot hold, and which the
     * broker therefore leaves out. The consumer never sees what is left out, so its parked copy cannot name it in
     * {@code retry-dropped-headers}.
     */
    @Test
    void theParkedCopyKeepsThePublishersSimpleAndXHeadersButNotItsOtherArraysOrTables() throws Exception {
        ParkingLot lot = ParkingLot.of(publishing, RetryTopology.INVOICES);
        behaviour = context -> {
            throw new IllegalArgumentException("invoice inv-9 has no customer");
        };
        publish("inv-9", Map.of("tenant", "acme", "copies", 2, "big", 5_000_000_000L, "paper", true,
                "issued-at", new Date(1_700_000_000_000L), "x-region", "eu", "x-zones", List.of("a", "b"),
                "tags", List.of("a", "b"), "customer", Map.of("id", "c-1")));

        await().atMost(Patience.WAIT).until(() -> lot.count() == 1);
        Map<String, Object> handled = seen.get(0).headers();
        Map<String, Object> parked = lot.list(1).get(0).properties().headers();
        for (Map<String, Object> headers : List.of(handled, parked)) {
            assertThat(headers).containsEntry("tenant", "acme").containsEntry("copies", 2)
                    .containsEntry("big", 5_000_000_000L).containsEntry("paper", true)
                    .containsEntry("issued-at", 1_700_000_000_000L)
                    .containsEntry("x-region", "eu").containsEntry("x-zones", List.of("a", "b"))
                    .doesNotContainKeys("tags", "customer", Header.DROPPED_HEADERS.name());
        }
        assertThat(lot.list(1).get(0).reason()).hasValue(ParkReason.NON_RETRYABLE);
    }

    private void publish(String id, Map<String, Object> headers) throws Exception {
        channel.basicPublish(EXCHANGE, ROUTING_KEY, true, new AMQP.BasicProperties.Builder().messageId(id)
                .contentType("text/plain").deliveryMode(2).headers(headers).build(),
                id.getBytes(StandardCharsets.UTF_8));
        channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
    }

    private static FailureGroup group(List<FailureGroup> groups, String reason) {
        return groups.stream().filter(group -> group.failure().reason().orElseThrow().equals(reason)).findFirst()
                .orElseThrow();
    }
}
