package io.github.retrytopology.operations.move;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The mover against a real broker: every message accounted for by its id, whatever stops the move. */
class MessageMoverIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private static final Map<String, Object> CLASSIC = Map.of("x-queue-type", "classic");
    private static final Map<String, Object> QUORUM = Map.of("x-queue-type", "quorum");

    private Connection connection;
    private Channel channel;

    @BeforeEach
    void connect() throws Exception {
        broker.reset();
        ConnectionFactory factory = broker.connectionFactory();
        factory.setAutomaticRecoveryEnabled(false);
        connection = factory.newConnection("message-mover-it");
        channel = connection.createChannel();
        channel.confirmSelect();
    }

    @AfterEach
    void close() throws IOException {
        connection.close();
    }

    @Test
    void movesEveryMessageOfAClassicQueueToAQuorumQueueWithItsPropertiesAndRewrittenHeaders() throws Exception {
        declare("old.retry", CLASSIC);
        declare("orders.retry.1", QUORUM);
        Date timestamp = new Date(1_700_000_000_000L);
        fill("old.retry", 500, n -> new AMQP.BasicProperties.Builder().messageId("m-" + n).correlationId("c-" + n)
                .contentType("application/json").contentEncoding("identity").timestamp(timestamp).priority(3)
                .type("order").appId("shop").userId("guest").deliveryMode(1)
                .headers(Map.of("tenant", "acme", "old-count", n % 4)).build());

        Thread caller = Thread.currentThread();
        List<Thread> rewrittenOn = Collections.synchronizedList(new ArrayList<>());
        MoveReport report = MessageMover.of(connection).move("old.retry", "orders.retry.1", (properties, envelope) -> {
            rewrittenOn.add(Thread.currentThread());
            Map<String, Object> headers = new HashMap<>(properties.getHeaders());
            headers.put("retry-attempts", headers.remove("old-count"));
            headers.put("retry-adopted-from", "old.retry");
            headers.put("routed-with", envelope.getRoutingKey());
            return headers;
        }, MoveOptions.defaults().user("guest"));

        assertThat(report).isEqualTo(new MoveReport("old.retry", "orders.retry.1", 500, MoveReport.Ending.DRAINED, 0));
        assertThat(rewrittenOn).as("the caller's thread, not the client's").hasSize(500).containsOnly(caller);
        assertThat(channel.messageCount("old.retry")).isZero();
        List<Message> moved = read("orders.retry.1");
        assertThat(moved).extracting(Message::id).containsExactlyElementsOf(ids(500));
        Message one = moved.get(7);
        AMQP.BasicProperties kept = one.properties();
        assertThat(kept.getCorrelationId()).isEqualTo("c-7");
        assertThat(kept.getContentType()).isEqualTo("application/json");
        assertThat(kept.getContentEncoding()).isEqualTo("identity");
        assertThat(kept.getTimestamp()).isEqualTo(timestamp);
        assertThat(kept.getPriority()).isEqualTo(3);
        assertThat(kept.getType()).isEqualTo("order");
        assertThat(kept.getAppId()).isEqualTo("shop");
        assertThat(kept.getUserId()).as("the connection's own user").isEqualTo("guest");
        assertThat(kept.getDeliveryMode()).as("persistent").isEqualTo(2);
        assertThat(kept.getHeaders()).containsEntry("retry-attempts", 3).doesNotContainKey("old-count");
        assertThat(kept.getHeaders().get("retry-adopted-from")).hasToString("old.retry");
        assertThat(kept.getHeaders().get("routed-with")).hasToString("old.retry");
        assertThat(kept.getHeaders().get("tenant")).hasToString("acme");
        assertThat(one.body()).isEqualTo("body m-7");
    }

    @Test
    void movesEveryMessageOfAQuorumQueueToAClassicQueueAndDropsAUserIdOfAnotherUser() throws Exception {
        declare("old.failed", QUORUM);
        declare("orders.parking-lot", CLASSIC);
        fill("old.failed", 300, n -> new AMQP.BasicProperties.Builder().messageId("m-" + n).userId("guest").build());

        MoveReport report = MessageMover.of(connection).move("old.failed", "orders.parking-lot",
                HeaderRewrite.asDelivered(), MoveOptions.defaults().user("someone-else"));

        assertThat(report.moved()).isEqualTo(300);
        assertThat(report.ending()).isEqualTo(MoveReport.Ending.DRAINED);
        assertThat(channel.messageCount("old.failed")).isZero();
        List<Message> moved = read("orders.parking-lot");
        assertThat(moved).extracting(Message::id).containsExactlyElementsOf(ids(300));
        assertThat(moved).allSatisfy(message -> assertThat(message.properties().getUserId()).isNull());
    }

    @Test
    void dropsAMessagesOwnExpirationUnlessToldToKeepIt() throws Exception {
        declare("old.wait", CLASSIC);
        declare("dropped", CLASSIC);
        declare("kept", CLASSIC);
        fill("old.wait", 20, n -> new AMQP.BasicProperties.Builder().messageId("m-" + n).expiration("600000").build());
        HeaderRewrite keepingItInAHeader = (properties, envelope) -> properties.getExpiration() == null ? Map.of()
                : Map.of("retry-original-expiration", properties.getExpiration());

        MessageMover mover = MessageMover.of(connection);
        mover.move("old.wait", "dropped", keepingItInAHeader, MoveOptions.defaults().limit(10));
        mover.move("old.wait", "kept", keepingItInAHeader,
                MoveOptions.defaults().expiration(MoveOptions.Expiration.KEEP));

        assertThat(read("dropped")).hasSize(10).allSatisfy(message -> {
            assertThat(message.properties().getExpiration()).isNull();
            assertThat(message.properties().getHeaders().get("retry-original-expiration")).hasToString("600000");
        });
        assertThat(read("kept")).hasSize(10)
                .allSatisfy(message -> assertThat(message.properties().getExpiration()).isEqualTo("600000"));
    }

    @Test
    void neverHandsAMessageOfAQuorumQueueWithADeliveryLimitOfOneBackToIt() throws Exception {
        declare("dead", CLASSIC);
        declare("old.work", Map.of("x-queue-type", "quorum", "x-delivery-limit", 1, "x-dead-letter-exchange", "",
                "x-dead-letter-routing-key", "dead"));
        declare("orders", QUORUM);
        fill("old.work", 10_000, n -> new AMQP.BasicProperties.Builder().messageId("m-" + n).build());
        AtomicInteger deliveredBefore = new AtomicInteger();
        HeaderRewrite counting = (properties, envelope) -> {
            Object count = properties.getHeaders() == null ? null : properties.getHeaders().get("x-delivery-count");
            if (envelope.isRedeliver() || (count instanceof Number number && number.longValue() > 0)) {
                deliveredBefore.incrementAndGet();
            }
            return HeaderRewrite.asDelivered().headers(properties, envelope);
        };

        MessageMover mover = MessageMover.of(connection);
        MoveReport first = mover.move("old.work", "orders", counting, MoveOptions.defaults().limit(3_333));
        MoveReport rest = mover.move("old.work", "orders", counting, MoveOptions.defaults());

        // What tells a cause apart first: a message handed over twice, then one copied twice, then the counts.
        assertThat(deliveredBefore).as("messages handed to the mover before").hasValue(0);
        List<Message> moved = read("orders");
        assertThat(moved).extracting(Message::id).containsExactlyInAnyOrderElementsOf(ids(10_000));
        assertThat(first).isEqualTo(new MoveReport("old.work", "orders", 3_333, MoveReport.Ending.LIMIT, 6_667));
        assertThat(rest).isEqualTo(new MoveReport("old.work", "orders", 6_667, MoveReport.Ending.DRAINED, 0));
        assertThat(channel.messageCount("dead")).as("parked by the delivery limit").isZero();
        assertThat(channel.messageCount("old.work")).isZero();
        assertThat(moved).as("none carries the source's delivery count")
                .allSatisfy(message -> assertThat(message.properties().getHeaders()).isNull());
    }

    @Test
    void stopsCleanlyWhenTheDestinationRefusesMessagesAndLosesNone() throws Exception {
        declare("old.retry", CLASSIC);
        declare("full", Map.of("x-queue-type", "classic", "x-max-length", 100, "x-overflow", "reject-publish"));
        fill("old.retry", 1_000, n -> new AMQP.BasicProperties.Builder().messageId("m-" + n).build());

        MessageMover mover = MessageMover.of(connection);
        assertThatThrownBy(() -> mover.move("old.retry", "full", HeaderRewrite.asDelivered(), MoveOptions.defaults()))
                .isInstanceOfSatisfying(MoveException.class, e -> assertThat(e.moved()).isEqualTo(100))
                .hasMessageContaining("stopped after 100: the broker refused a copy")
                .hasMessageContaining("Every other message is still in old.retry");

        assertThat(channel.messageCount("full")).isEqualTo(100);
        assertThat(channel.messageCount("old.retry")).isEqualTo(900);
        List<String> everywhere = new ArrayList<>(ids(read("full")));
        everywhere.addAll(ids(read("old.retry")));
        assertThat(everywhere).containsExactlyInAnyOrderElementsOf(ids(1_000));
    }

    @Test
    void stopsWhenItsCopiesComeBackAndLeavesEveryMessageItDidNotMoveInTheSource() throws Exception {
        declare("old.retry", QUORUM);
        declare("deleted-midway", CLASSIC);
        fill("old.retry", 2_000, n -> new AMQP.BasicProperties.Builder().messageId("m-" + n).build());
        AtomicInteger copied = new AtomicInteger();
        HeaderRewrite deletingTheDestination = (properties, envelope) -> {
            if (copied.incrementAndGet() == 500) {
                try (Channel other = connection.createChannel()) {
                    other.queueDelete("deleted-midway");
                } catch (IOException | java.util.concurrent.TimeoutException e) {
                    throw new IllegalStateException(e);
                }
            }
            return null;
        };

        MessageMover mover = MessageMover.of(connection);
        assertThatThrownBy(() -> mover.move("old.retry", "deleted-midway", deletingTheDestination,
                MoveOptions.defaults()))
                .isInstanceOfSatisfying(MoveException.class, e -> {
                    assertThat(e.moved()).isLessThan(500);
                    // A quorum queue takes what was returned to it a moment later.
                    await().atMost(Patience.WAIT).until(() -> channel.messageCount("old.retry") == 2_000 - e.moved());
                })
                .hasMessageContaining("the broker returned a copy (312 NO_ROUTE): there is no queue deleted-midway");
    }

    @Test
    void refusesToStartWhenTheDestinationIsMissing() throws Exception {
        declare("old.retry", CLASSIC);
        fill("old.retry", 10, n -> new AMQP.BasicProperties.Builder().messageId("m-" + n).build());

        assertThatThrownBy(() -> MessageMover.of(connection).move("old.retry", "nowhere", HeaderRewrite.asDelivered(),
                MoveOptions.defaults()))
                .isInstanceOf(MoveException.class)
                .hasMessage("there is no queue nowhere to move the messages of old.retry to");
        assertThat(channel.messageCount("old.retry")).isEqualTo(10);
    }

    @Test
    void aMoveKilledHalfwayLosesNothingAndTheNextRunFinishesIt() throws Exception {
        declare("old.retry", QUORUM);
        declare("orders.retry.1", CLASSIC);
        int count = 20_000;
        fill("old.retry", count, n -> new AMQP.BasicProperties.Builder().messageId("m-" + n).build());

        Process mover = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), MovingProcess.class.getName(),
                broker.broker().amqpUri(broker.name()), "old.retry", "orders.retry.1")
                .redirectErrorStream(true).start();
        try (BufferedReader output = new BufferedReader(new InputStreamReader(mover.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            do {
                line = output.readLine();
            } while (line != null && !line.equals("copied 6000"));
            assertThat(line).as("the moving process's progress").isNotNull();
            mover.destroyForcibly();
        } finally {
            assertThat(mover.destroyForcibly().waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        await().atMost(Patience.WAIT).until(() -> channel.messageCount("old.retry")
                + channel.messageCount("orders.retry.1") >= count);
        long copied = channel.messageCount("orders.retry.1");
        long left = channel.messageCount("old.retry");
        assertThat(copied).as("killed halfway").isBetween(1L, (long) count - 1);

        MoveReport rest = MessageMover.of(connection).move("old.retry", "orders.retry.1", HeaderRewrite.asDelivered(),
                MoveOptions.defaults());

        assertThat(rest.moved()).isEqualTo(left);
        assertThat(channel.messageCount("old.retry")).isZero();
        assertThat(channel.messageCount("orders.retry.1")).isEqualTo(copied + left);
        List<String> moved = ids(read("orders.retry.1"));
        assertThat(new HashSet<>(moved)).containsExactlyInAnyOrderElementsOf(ids(count));
        assertThat(moved.size() - count).as("copies twice: at most the messages on their way when it was killed")
                .isBetween(0, MoveOptions.defaults().prefetch());
    }

    private void declare(String queue, Map<String, Object> arguments) throws IOException {
        channel.queueDeclare(queue, true, false, false, arguments);
    }

    /** Publishes messages {@code m-0} to {@code m-(count-1)} straight to a queue, confirmed. */
    private void fill(String queue, int count, IntFunction<AMQP.BasicProperties> properties) throws Exception {
        for (int n = 0; n < count; n++) {
            channel.basicPublish("", queue, true, properties.apply(n),
                    ("body m-" + n).getBytes(StandardCharsets.UTF_8));
            if (n % 1_000 == 999) {
                channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
            }
        }
        channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
    }

    /** One message as read back. */
    private record Message(String id, AMQP.BasicProperties properties, String body) {
    }

    /** Takes every message from a queue, in order. */
    private List<Message> read(String queue) throws Exception {
        long count = channel.messageCount(queue);
        List<Message> messages = Collections.synchronizedList(new ArrayList<>());
        try (Channel reading = connection.createChannel()) {
            reading.basicQos(1_000);
            reading.basicConsume(queue, true, new DefaultConsumer(reading) {
                @Override
                public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
                    messages.add(new Message(properties.getMessageId(), properties, new String(body, StandardCharsets.UTF_8)));
                }
            });
            await().atMost(Patience.WAIT).until(() -> messages.size() >= count);
        }
        return messages;
    }

    private static List<String> ids(int count) {
        return IntStream.range(0, count).mapToObj(n -> "m-" + n).toList();
    }

    private static List<String> ids(List<Message> messages) {
        return messages.stream().map(Message::id).collect(Collectors.toList());
    }
}
