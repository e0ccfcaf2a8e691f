package io.github.retrytopology.runtime.parkinglot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.AlreadyClosedException;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.RetryRuntimeException;
import io.github.retrytopology.runtime.amqp091.ParkingLotCursor;
import io.github.retrytopology.runtime.amqp091.ParkingLotReading;
import io.github.retrytopology.runtime.amqp091.Received;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.consumer.Routes;
import io.github.retrytopology.runtime.headers.RetryHeaders;
import io.github.retrytopology.runtime.testing.Parked;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The parking-lot tools against a real broker; {@code cli.RetryCommandIT} runs them from the command line. */
class ParkingLotIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");
    private static final Path SPEC = Path.of("src/test/resources/specs/fast-retries.yml");
    private static RetrySpec spec;
    private static Service orders;
    private static Service audit;

    private Topology topology;
    private Connection connection;
    private Channel channel;
    private ParkingLot parkingLot;

    @BeforeAll
    static void loadSpec() throws IOException {
        spec = Specs.load(SPEC);
        orders = spec.service("orders");
        audit = spec.service("audit");
    }

    @BeforeEach
    void declare() throws IOException {
        topology = broker.declare(spec);
        connection = broker.connect("parking-lot-it");
        channel = connection.createChannel();
        channel.confirmSelect();
        parkingLot = ParkingLot.of(connection, orders, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @AfterEach
    void delete() throws IOException {
        broker.deleteQueues(topology);
    }

    @Test
    void listsParkedMessagesWithTheirHeadersDecodedAndLeavesThemParked() throws Exception {
        park("order.created", "first", new IllegalStateException("boom"), NOW.minusSeconds(600));
        park("order.created", "second", new java.io.IOException("disk"), NOW.minusSeconds(60));

        List<ParkedMessage> listed = parkingLot.list(10);

        assertThat(listed).hasSize(2);
        ParkedMessage first = listed.get(0);
        assertThat(new String(first.body(), StandardCharsets.UTF_8)).isEqualTo("first");
        assertThat(first.reason()).hasValue(ParkReason.ATTEMPTS_EXHAUSTED);
        assertThat(first.detail()).isEqualTo("attempt 4 of 4 failed");
        assertThat(first.routingKey()).hasValue("order.created");
        assertThat(first.attempts()).isEqualTo(4);
        assertThat(first.exception()).hasValue("java.lang.IllegalStateException");
        assertThat(first.exceptionMessage()).hasValue("boom");
        assertThat(first.parkedAt()).hasValue(NOW.minusSeconds(600));
        assertParked(2);
        assertThat(parkingLot.list(1)).hasSize(1);
    }

    @Test
    void listingAFewReadsNoFurtherThanItShows() throws Exception {
        for (int i = 0; i < 30; i++) {
            park("order.created", "message-" + i, new IllegalStateException("boom"), NOW.minusSeconds(60));
        }

        assertThat(parkingLot.list(5)).extracting(message -> new String(message.body(), StandardCharsets.UTF_8))
                .containsExactly("message-0", "message-1", "message-2", "message-3", "message-4");

        assertParked(30);
        int readBefore = 0;
        for (var response = channel.basicGet(orders.parkingLot(), true); response != null;
                response = channel.basicGet(orders.parkingLot(), true)) {
            readBefore += response.getEnvelope().isRedeliver() ? 1 : 0;
        }
        assertThat(readBefore).as("parked messages the listing read").isEqualTo(5);
    }

    @Test
    void listsTwinsOfOneMessageAndAttemptOnceAndReplaysOneCopy() throws Exception {
        park("order.created", "twin", new IllegalStateException("boom"), NOW.minusSeconds(60));
        park("order.created", "single", new IllegalStateException("boom"), NOW.minusSeconds(60));
        park("order.created", "twin", new IllegalStateException("boom"), NOW.minusSeconds(59));

        List<ParkedMessage> listed = parkingLot.list(10);

        assertThat(listed).extracting(message -> new String(message.body(), StandardCharsets.UTF_8), ParkedMessage::copies)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("twin", 2), org.assertj.core.groups.Tuple.tuple("single", 1));
        ReplayReport report = parkingLot.replay(ReplayFilter.all(), 10, false);
        assertThat(report.replayed()).isEqualTo(2);
        assertThat(report.twinsDropped()).isEqualTo(1);
        assertParked(0);
        assertThat(bodies(orders.queue())).containsExactlyInAnyOrder("twin", "single");
    }

    @Test
    void groupsByFailureWithNumbersAndIdsMaskedAndLeavesEveryMessageParked() throws Exception {
        park("order.created", "a", new java.io.IOException("timeout after 500 ms calling 10.0.0.7"), NOW.minusSeconds(600));
        park("order.created", "b", new java.io.IOException("timeout after 750 ms calling 10.0.0.9"), NOW.minusSeconds(60));
        park("order.created", "c", new java.io.IOException("timeout after 20 ms calling 10.0.0.9"), NOW.minusSeconds(300));
        park("order.42.paid", "d", new IllegalStateException("boom"), NOW.minusSeconds(30));

        FailureGroups read = parkingLot.groups(100_000);

        assertThat(read.parked()).isEqualTo(4);
        assertThat(read.scanned()).isEqualTo(4);
        assertThat(read.complete()).isTrue();
        assertThat(read.groups()).hasSize(2);
        FailureGroup timeouts = read.groups().get(0);
        assertThat(timeouts.count()).isEqualTo(3);
        assertThat(timeouts.failure()).isEqualTo(new Failure(Optional.of("java.io.IOException"),
                Optional.of("timeout after # ms calling #"), Optional.of("attempts-exhausted")));
        assertThat(timeouts.first()).hasValue(NOW.minusSeconds(600));
        assertThat(timeouts.last()).hasValue(NOW.minusSeconds(60));
        assertThat(read.groups().get(1).count()).isEqualTo(1);
        assertParked(4);
        assertThat(parkingLot.groups(100_000).groups()).as("the same groups when read again")
                .isEqualTo(read.groups());
    }

    @Test
    void groupsMoreMessagesThanOneConsumerMayHoldUnacknowledged() throws Exception {
        int parked = 2 * ParkingLotReading.PER_CHANNEL + 500;
        for (int i = 0; i < parked; i++) {
            Exception failure = i % 3 == 0 ? new IllegalStateException("order " + i + " is locked")
                    : new java.io.IOException("peer " + i + " reset");
            publishParked("order.created", "m" + i, failure, NOW.minusSeconds(i));
        }
        channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());

        FailureGroups read = parkingLot.groups(100_000);

        assertThat(read.scanned()).isEqualTo(parked);
        assertThat(read.groups()).extracting(group -> group.failure().message().orElseThrow(), FailureGroup::count)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("peer # reset", (long) parked - parked / 3),
                        org.assertj.core.groups.Tuple.tuple("order # is locked", (long) parked / 3));
        assertParked(parked);
        assertThat(parkingLot.groups(1_000).scanned()).as("a capped reading").isEqualTo(1_000);
    }

    @Test
    void listsTheMessagesOfOneGroupOldestFirst() throws Exception {
        park("order.created", "late", new java.io.IOException("disk 1 full"), NOW.minusSeconds(60));
        park("order.created", "other", new IllegalStateException("boom"), NOW.minusSeconds(30));
        park("order.created", "early", new java.io.IOException("disk 2 full"), NOW.minusSeconds(600));
        String disks = parkingLot.groups(100).groups().stream()
                .filter(group -> group.failure().exception().orElseThrow().endsWith("IOException"))
                .findFirst().orElseThrow().key();

        List<ParkedMessage> listed = parkingLot.list(ReplayFilter.all().failure(disks), 10, 100_000);

        assertThat(listed).extracting(ParkedMessage::id).containsExactly("id-early", "id-late");
        assertThat(parkingLot.list(ReplayFilter.all().ids(List.of("id-other")), 10, 100_000))
                .extracting(message -> new String(message.body(), StandardCharsets.UTF_8)).containsExactly("other");
        assertParked(3);
    }

    @Test
    void replaysChosenMessagesInTheNameOfWhoAskedAndTellsItsProgress() throws Exception {
        park("order.created", "one", new IllegalStateException("boom"), NOW);
        park("order.created", "two", new IllegalStateException("boom"), NOW);
        park("order.created", "three", new IllegalStateException("boom"), NOW);
        List<Integer> progress = new CopyOnWriteArrayList<>();

        ReplayReport report = parkingLot.replay(ReplayFilter.all().ids(List.of("id-one", "id-three")),
                ReplayOptions.limit(10).rate(50).replayedBy("alice (retry console)")
                        .progress((scanned, matched, replayed) -> progress.add(replayed)));

        assertThat(report.replayed()).isEqualTo(2);
        assertThat(progress).contains(1, 2).last().isEqualTo(2);
        assertParked(1);
        List<GetResponseHeaders> replayed = replayedHeaders(orders.queue());
        assertThat(replayed).extracting(GetResponseHeaders::body).containsExactlyInAnyOrder("one", "three");
        assertThat(replayed).allSatisfy(message -> {
            assertThat(message.headers().replayedBy()).hasValue("alice (retry console)");
            assertThat(message.headers().replayedAt()).hasValue(NOW);
        });
    }

    @Test
    void aReplayReadsNoFurtherThanTheLastMessageItMayTake() throws Exception {
        park("order.created", "one", new IllegalStateException("boom"), NOW);
        park("order.created", "two", new IllegalStateException("boom"), NOW);
        for (int i = 0; i < 50; i++) {
            publishParked("order.created", "other-" + i, new IllegalStateException("boom"), NOW);
        }
        channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());

        ReplayReport report = parkingLot.replay(ReplayFilter.all().ids(List.of("id-one", "id-two")), 2, false);

        assertThat(report.replayed()).isEqualTo(2);
        assertThat(report.scanned()).as("parked messages looked at").isEqualTo(2);
        assertParked(50);
    }

    @Test
    void replaysAFewMessagesSpreadThroughMoreThanOneConsumerMayHold() throws Exception {
        int parked = 2 * ParkingLotReading.PER_CHANNEL + 500;
        for (int i = 0; i < parked; i++) {
            publishParked("order.created", "m" + i, new IllegalStateException("boom"), NOW);
        }
        channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());

        ReplayReport report = parkingLot.replay(ReplayFilter.all().ids(List.of("id-m10", "id-m2200", "id-m4400")),
                10, false);

        assertThat(report.scanned()).as("parked messages looked at").isEqualTo(parked);
        assertThat(report.replayed()).isEqualTo(3);
        assertThat(bodies(orders.queue())).containsExactlyInAnyOrder("m10", "m2200", "m4400");
        assertParked(parked - 3);
        assertThat(parkingLot.groups(100_000).scanned()).as("every other message parked still").isEqualTo(parked - 3);
    }

    @Test
    void aCursorKeepsLargeBodiesWithinItsBudgetAndDropsThoseItDoesNotWant() throws Exception {
        int size = 16 << 10;
        for (int i = 0; i < 40; i++) {
            byte[] body = ("m" + i + " ").repeat(size).substring(0, size).getBytes(StandardCharsets.US_ASCII);
            Parked.publish(channel, orders, "order.created", "id-m" + i, body, new IllegalStateException("boom"), NOW);
        }
        channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
        List<String> seen = new ArrayList<>();

        ParkingLotCursor cursor = ParkingLotCursor.open(connection, orders.parkingLot(), 40, System::nanoTime,
                message -> !"id-m3".equals(message.properties().messageId()), 4L * size);
        try (cursor) {
            for (var delivery = cursor.next(); delivery != null; delivery = cursor.next()) {
                String id = delivery.message().properties().messageId();
                assertThat(delivery.message().body()).as(id).hasSize(id.equals("id-m3") ? 0 : size);
                assertThat(delivery.wanted()).isEqualTo(!id.equals("id-m3"));
                seen.add(id);
            }
            assertThat(cursor.channels()).as("16 messages on the first channel, then the budget's 4 a channel")
                    .isEqualTo(7);
            assertThat(cursor.mostWaiting()).as("bytes waiting at most: the first channel's").isLessThanOrEqualTo(
                    16L * size);
        }

        assertThat(seen).hasSize(40).doesNotHaveDuplicates();
        assertThat(cursor.returned()).isEqualTo(40);
        assertParked(40);
    }

    @Test
    void aReplayWhoseConnectionIsLostMidwayLeavesEachMessageParkedOrReplayed() throws Exception {
        for (int i = 0; i < 6; i++) {
            park("order.created", "m" + i, new IllegalStateException("boom"), NOW);
        }
        Connection lost = broker.connect("parking-lot-it-lost");
        ParkingLot lostLot = ParkingLot.of(lost, orders, Clock.fixed(NOW, ZoneOffset.UTC));

        assertThatThrownBy(() -> lostLot.replay(ReplayFilter.all(), ReplayOptions.limit(10).rate(50)
                .progress((scanned, matched, replayed) -> {
                    if (replayed == 2) {
                        lost.abort();
                    }
                }))).isInstanceOfAny(IOException.class, AlreadyClosedException.class);

        assertThat(bodies(orders.queue())).containsExactlyInAnyOrder("m0", "m1");
        assertParked(4);
        assertThat(parkingLot.list(10)).extracting(message -> new String(message.body(), StandardCharsets.UTF_8))
                .containsExactlyInAnyOrder("m2", "m3", "m4", "m5");
    }

    @Test
    void listsWhatXDeathSaysOfAMessageTheBrokerParkedItself() throws Exception {
        channel.basicPublish("test.events", "order.created", true, new AMQP.BasicProperties.Builder()
                .messageId("stale").expiration("50").build(), "stale".getBytes(StandardCharsets.UTF_8));
        channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
        assertParked(1);

        ParkedMessage parked = parkingLot.list(1).get(0);

        assertThat(parked.reason()).hasValue(ParkReason.EXPIRED);
        assertThat(parked.detail()).contains("the broker dead-lettered it from orders", "expired",
                "its own expiration of 50 ms passed before a consumer took it");
        assertThat(parked.parkedAt()).hasValueSatisfying(at -> assertThat(at).isAfter(Instant.now().minusSeconds(60)));
        assertThat(parked.routingKey()).hasValue("order.created");
        assertThat(parked.brokerReason()).hasValue("expired");
    }

    @Test
    void replaysToTheServicesOwnQueueWithItsAttemptsReset() throws Exception {
        park("order.created", "parked", new IllegalStateException("boom"), NOW.minusSeconds(60));

        ReplayReport report = parkingLot.replay(ReplayFilter.all(), 10, false);

        assertThat(report.replayed()).isEqualTo(1);
        assertParked(0);
        assertThat(channel.messageCount(audit.queue())).as("no other service sees it again").isZero();
        var replayed = channel.basicGet(orders.queue(), true);
        assertThat(new String(replayed.getBody(), StandardCharsets.UTF_8)).isEqualTo("parked");
        RetryHeaders headers = RetryHeaders.of(Received.headers(replayed.getProps().getHeaders()));
        assertThat(headers.attempts()).isZero();
        assertThat(headers.replays()).isEqualTo(1);
        assertThat(headers.originalRoutingKey()).hasValue("order.created");
        assertThat(headers.exception()).isEmpty();
        assertThat(replayed.getProps().getMessageId()).isEqualTo("id-parked");
    }

    @Test
    void replaysOnlyWhatTheFilterTakesUpToTheLimit() throws Exception {
        park("order.created", "old io", new java.io.IOException("disk"), NOW.minusSeconds(3_600));
        park("order.created", "new io", new java.io.IOException("disk"), NOW.minusSeconds(60));
        park("order.42.paid", "old state", new IllegalStateException("boom"), NOW.minusSeconds(3_600));
        park("order.created", "older io", new java.io.IOException("disk"), NOW.minusSeconds(7_200));

        ReplayReport report = parkingLot.replay(ReplayFilter.all().exception("IOException").olderThan(Duration.ofMinutes(30)),
                1, false);

        assertThat(report.matched()).isEqualTo(1);
        assertThat(report.replayed()).isEqualTo(1);
        assertThat(bodies(orders.queue())).containsExactly("old io");
        assertParked(3);
        assertThat(parkingLot.list(10)).extracting(message -> new String(message.body(), StandardCharsets.UTF_8))
                .containsExactlyInAnyOrder("new io", "old state", "older io");
    }

    @Test
    void filtersByRoutingKeyPattern() throws Exception {
        park("order.created", "created", new IllegalStateException("boom"), NOW);
        park("order.42.paid", "paid", new IllegalStateException("boom"), NOW);

        ReplayReport report = parkingLot.replay(ReplayFilter.all().routingKey("order.*.paid"), 10, false);

        assertThat(report.replayed()).isEqualTo(1);
        assertThat(bodies(orders.queue())).containsExactly("paid");
    }

    @Test
    void aDryRunReplaysNothingAndShowsWhatItWould() throws Exception {
        park("order.created", "parked", new IllegalStateException("boom"), NOW);

        ReplayReport report = parkingLot.replay(ReplayFilter.all(), 10, true);

        assertThat(report.dryRun()).isTrue();
        assertThat(report.matched()).isEqualTo(1);
        assertThat(report.replayed()).isZero();
        assertThat(report.preview()).hasSize(1);
        assertParked(1);
        assertThat(channel.messageCount(orders.queue())).isZero();
    }

    @Test
    void keepsAMessageParkedWhenItsServiceQueueIsGone() throws Exception {
        park("order.created", "parked", new IllegalStateException("boom"), NOW);
        channel.queueDelete(orders.queue());

        assertThatThrownBy(() -> parkingLot.replay(ReplayFilter.all(), 10, false))
                .isInstanceOf(RetryRuntimeException.class).hasMessageContaining("does queue orders exist?");
        assertParked(1);
    }

    @Test
    void purgesForGood() throws Exception {
        park("order.created", "one", new IllegalStateException("boom"), NOW);
        park("order.created", "two", new IllegalStateException("boom"), NOW);

        assertThat(parkingLot.purge()).isEqualTo(2);
        assertParked(0);
    }

    @Test
    void replayedMessagesAreProcessedOnceTheHandlerIsFixed() throws Exception {
        List<String> handled = new CopyOnWriteArrayList<>();
        park("order.created", "parked", new IllegalStateException("boom"), NOW);
        RetryingConsumer consumer = RetryingConsumer.builder(connection, Routes.builder(orders)
                .on("order.created", context -> handled.add(context.routingKey() + " attempt " + context.attempt()))
                .on("order.*.paid", String.class, (payload, context) -> { })
                .build()).start();

        parkingLot.replay(ReplayFilter.all(), 10, false);

        await().atMost(Patience.WAIT).until(() -> handled.size() == 1);
        consumer.stop(Duration.ofSeconds(5));
        assertThat(handled).containsExactly("order.created attempt 1");
        assertParked(0);
    }

    /** Parks a message the way the consumer does, as if it failed its last attempt at {@code parkedAt}. */
    private void park(String routingKey, String body, Exception failure, Instant parkedAt) throws Exception {
        publishParked(routingKey, body, failure, parkedAt);
        channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
    }

    /** The same, without waiting for the broker's confirm. */
    private void publishParked(String routingKey, String body, Exception failure, Instant parkedAt) throws IOException {
        Parked.publish(channel, orders, routingKey, body, failure, parkedAt);
    }

    /**
     * Asserts how many messages are parked. A quorum queue counts the messages a closed channel returned a
     * moment after the channel closed, so the count is awaited.
     */
    private void assertParked(long expected) {
        await().atMost(Patience.WAIT).untilAsserted(() -> assertThat(parkingLot.count()).isEqualTo(expected));
    }

    private record GetResponseHeaders(String body, RetryHeaders headers) {
    }

    private List<GetResponseHeaders> replayedHeaders(String queue) throws IOException {
        List<GetResponseHeaders> messages = new ArrayList<>();
        for (var response = channel.basicGet(queue, true); response != null; response = channel.basicGet(queue, true)) {
            messages.add(new GetResponseHeaders(new String(response.getBody(), StandardCharsets.UTF_8),
                    RetryHeaders.of(Received.headers(response.getProps().getHeaders()))));
        }
        return messages;
    }

    private List<String> bodies(String queue) throws IOException {
        List<String> bodies = new ArrayList<>();
        for (var response = channel.basicGet(queue, true); response != null; response = channel.basicGet(queue, true)) {
            bodies.add(new String(response.getBody(), StandardCharsets.UTF_8));
        }
        return bodies;
    }
}
