package io.github.retrytopology.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import io.github.retrytopology.it.scenarios.InvoicingHandler;
import io.github.retrytopology.it.scenarios.MixedHandler;
import io.github.retrytopology.it.scenarios.OrdersHandler;
import io.github.retrytopology.it.scenarios.RetryTopology;
import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.consumer.DeliveryContext;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.consumer.Routes;
import io.github.retrytopology.runtime.headers.RetryHeaders;
import io.github.retrytopology.runtime.parkinglot.ParkedMessage;
import io.github.retrytopology.runtime.parkinglot.ParkingLot;
import io.github.retrytopology.runtime.parkinglot.ReplayFilter;
import io.github.retrytopology.runtime.testing.Delivered;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole path on a real broker: the definitions the plugin generated from {@code specs/scenarios.yml},
 * imported as an operator would; the generated handlers implemented; real messages failing, waiting in their
 * tiers, coming back, parked and replayed.
 */
class RetryScenariosIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    /** Timing tolerance for a loaded two-core machine: a tier may deliver late, never early. */
    private static final Duration LATE = Duration.ofMillis(1_500);

    private final List<RetryingConsumer> consumers = new ArrayList<>();
    private final BlockingQueue<Delivery> deliveries = new LinkedBlockingQueue<>();
    private final Topology topology = Topology.of(RetryTopology.SPEC.inVhost(broker.name()));
    private Connection connection;
    private Channel channel;

    /** One delivery a handler saw. */
    record Delivery(String service, String body, int attempt, Instant at) {
    }

    @BeforeEach
    void importDefinitions() throws Exception {
        Scenarios.importDefinitions(broker, RetryTopology.class, RetryTopology.VHOST_DEFINITIONS);
        connection = broker.connect("retry-scenarios");
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
    void aHandlerThatSucceedsTakesOneDeliveryAndLeavesNothing() throws Exception {
        start(orders(body -> false));
        start(invoicing(body -> false));

        Scenarios.publish(channel, RetryTopology.EXCHANGE, "order.placed", "order-1");

        await().atMost(Patience.WAIT).until(() -> deliveries.size() == 2);
        stopAll();
        assertThat(deliveries).extracting(Delivery::service, Delivery::attempt)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("orders", 1),
                        org.assertj.core.groups.Tuple.tuple("invoicing", 1));
        Scenarios.assertQueues(channel, topology, Map.of());
    }

    @Test
    void aHandlerThatFailsTwiceIsRetriedAfterEachTiersDelay() throws Exception {
        start(orders(body -> attemptsSoFar("orders") < 2));
        start(invoicing(body -> false));

        Scenarios.publish(channel, RetryTopology.EXCHANGE, "order.placed", "order-2");

        await().atMost(Patience.WAIT).until(() -> count("orders") == 3);
        List<Delivery> seen = of("orders");
        assertThat(seen).extracting(Delivery::attempt).containsExactly(1, 2, 3);
        assertThat(Duration.between(seen.get(0).at(), seen.get(1).at())).isBetween(delay(1), delay(1).plus(LATE));
        assertThat(Duration.between(seen.get(1).at(), seen.get(2).at())).isBetween(delay(2), delay(2).plus(LATE));
        stopAll();
        Scenarios.assertQueues(channel, topology, Map.of());
    }

    @Test
    void aShortDelayDoesNotWaitBehindALongOne() throws Exception {
        // "long" fails twice, so that its second retry waits in the 2s tier; "short" fails once, and its retry
        // waits in the 200ms tier while "long" is still waiting. One queue per tier lets "short" pass.
        start(mixed(body -> body.equals("long") ? attemptsOf("long") <= 2 : attemptsOf("short") <= 1));

        Scenarios.publish(channel, RetryTopology.EXCHANGE, "mixed.event", "long");
        await().atMost(Patience.WAIT).until(() -> attemptsOf("long") == 2);
        Instant shortPublished = Instant.now();
        Scenarios.publish(channel, RetryTopology.EXCHANGE, "mixed.event", "short");

        await().atMost(Patience.WAIT).until(() -> attemptsOf("long") == 3 && attemptsOf("short") == 2);
        Delivery longBack = last("long");
        Delivery shortBack = last("short");
        Delivery longSecond = deliveries.stream().filter(delivery -> delivery.body().equals("long") && delivery.attempt() == 2)
                .findFirst().orElseThrow();
        Duration longWait = Duration.between(longSecond.at(), longBack.at());
        Duration shortWait = Duration.between(shortPublished, shortBack.at());
        assertThat(longWait).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(2).plus(LATE));
        assertThat(shortWait).isBetween(Duration.ofMillis(200), Duration.ofMillis(200).plus(LATE));
        assertThat(shortBack.at()).as("the short retry comes back before the long one").isBefore(longBack.at());
    }

    @Test
    void aHandlerThatAlwaysFailsParksTheMessageIntactAfterItsLastAttempt() throws Exception {
        start(orders(body -> true));
        start(invoicing(body -> false));
        Date timestamp = new Date(1_700_000_000_000L);
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().contentType("text/plain")
                .messageId("order-3").correlationId("checkout-9").timestamp(timestamp)
                .headers(Map.of("tenant", "acme")).build();

        Scenarios.publish(channel, RetryTopology.EXCHANGE, "order.placed", "order-3".getBytes(StandardCharsets.UTF_8),
                properties);

        await().atMost(Patience.WAIT).until(() -> channel.messageCount(RetryTopology.Orders.PARKING_LOT) == 1);
        assertThat(of("orders")).extracting(Delivery::attempt).containsExactly(1, 2, 3, 4);
        GetResponse parked = channel.basicGet(RetryTopology.Orders.PARKING_LOT, true);
        assertThat(new String(parked.getBody(), StandardCharsets.UTF_8)).isEqualTo("order-3");
        assertThat(parked.getProps().getMessageId()).isEqualTo("order-3");
        assertThat(parked.getProps().getCorrelationId()).isEqualTo("checkout-9");
        assertThat(parked.getProps().getTimestamp()).isEqualTo(timestamp);
        assertThat(parked.getProps().getContentType()).isEqualTo("text/plain");
        assertThat(parked.getProps().getHeaders().get("tenant")).hasToString("acme");
        RetryHeaders headers = Delivered.headers(parked.getProps());
        assertThat(headers.attempts()).isEqualTo(RetryTopology.Orders.MAX_ATTEMPTS);
        assertThat(headers.parkReason()).hasValue(ParkReason.ATTEMPTS_EXHAUSTED);
        assertThat(headers.exception()).hasValue(IllegalStateException.class.getName());
        assertThat(headers.exceptionMessage()).hasValue("order-3 failed on attempt 4");
        assertThat(headers.originalRoutingKey()).hasValue("order.placed");
        assertThat(headers.originalExchange()).hasValue(RetryTopology.EXCHANGE);
        assertThat(headers.failures()).hasSize(4);
        stopAll();
        Scenarios.assertQueues(channel, topology, Map.of());
    }

    @Test
    void aRetryReachesOnlyTheServiceThatFailedIt() throws Exception {
        start(orders(body -> attemptsSoFar("orders") < 2));
        start(invoicing(body -> false));

        Scenarios.publish(channel, RetryTopology.EXCHANGE, "order.placed", "order-4");

        await().atMost(Patience.WAIT).until(() -> count("orders") == 3);
        stopAll();
        assertThat(of("invoicing")).hasSize(1);
        Scenarios.assertQueues(channel, topology, Map.of());
    }

    @Test
    void aNonRetryableFailureAndAnUndecodablePayloadAreParkedAtOnce() throws Exception {
        List<Payment> payments = new CopyOnWriteArrayList<>();
        start(Routes.builder(RetryTopology.ORDERS)
                .on("order.placed", context -> {
                    throw new IllegalArgumentException("order " + body(context) + " is malformed");
                })
                .on("payment.*.received", Payment.class, (payment, context) -> payments.add(payment))
                .build());

        Scenarios.publish(channel, RetryTopology.EXCHANGE, "order.placed", "order-5");
        Scenarios.publish(channel, RetryTopology.EXCHANGE, "payment.order-6.received",
                "{\"order\": \"order-6\", \"cents\": ".getBytes(StandardCharsets.UTF_8),
                new AMQP.BasicProperties.Builder().contentType("application/json").build());
        Scenarios.publish(channel, RetryTopology.EXCHANGE, "payment.order-7.received",
                new ObjectMapper().writeValueAsBytes(new Payment("order-7", 1_250)),
                new AMQP.BasicProperties.Builder().contentType("application/json").build());

        await().atMost(Patience.WAIT).until(() -> channel.messageCount(RetryTopology.Orders.PARKING_LOT) == 2);
        List<ParkedMessage> parked = ParkingLot.of(connection, RetryTopology.ORDERS).list(10);
        assertThat(parked).extracting(message -> message.reason().orElseThrow())
                .containsExactlyInAnyOrder(ParkReason.NON_RETRYABLE, ParkReason.UNDECODABLE);
        assertThat(parked).allSatisfy(message -> assertThat(message.attempts()).isEqualTo(1));
        assertThat(payments).containsExactly(new Payment("order-7", 1_250));
    }

    @Test
    void aParkedMessageReplayedAfterTheHandlerIsFixedIsProcessedOnce() throws Exception {
        RetryingConsumer broken = start(orders(body -> true));
        start(invoicing(body -> false));
        Scenarios.publish(channel, RetryTopology.EXCHANGE, "order.placed", "order-8");
        await().atMost(Patience.WAIT).until(() -> channel.messageCount(RetryTopology.Orders.PARKING_LOT) == 1);
        broken.stop(Duration.ofSeconds(5));
        deliveries.clear();

        start(orders(body -> false));
        ParkingLot.of(connection, RetryTopology.ORDERS).replay(ReplayFilter.all(), 10, false);

        await().atMost(Patience.WAIT).until(() -> count("orders") == 1);
        stopAll();
        assertThat(of("orders")).extracting(Delivery::body, Delivery::attempt)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("order-8", 1));
        assertThat(of("invoicing")).as("the replay does not reach the other service").isEmpty();
        Scenarios.assertQueues(channel, topology, Map.of());
    }

    private RetryingConsumer start(Routes routes) throws Exception {
        RetryingConsumer consumer = RetryingConsumer.builder(connection, routes).codec(Scenarios.JSON).start();
        consumers.add(consumer);
        return consumer;
    }

    /** The orders service: fails a message while {@code fails} says so. */
    private Routes orders(Predicate<String> fails) {
        return OrdersHandler.routes(new OrdersHandler() {
            @Override
            public void orderPlaced(DeliveryContext context) {
                handle("orders", context, fails);
            }

            @Override
            public void paymentReceived(Payment payment, DeliveryContext context) {
                handle("orders", context, fails);
            }
        });
    }

    private Routes invoicing(Predicate<String> fails) {
        return InvoicingHandler.routes(context -> handle("invoicing", context, fails));
    }

    private Routes mixed(Predicate<String> fails) {
        return MixedHandler.routes(context -> handle("mixed", context, fails));
    }

    private void handle(String service, DeliveryContext context, Predicate<String> fails) {
        String body = body(context);
        deliveries.add(new Delivery(service, body, context.attempt(), Instant.now()));
        if (fails.test(body)) {
            throw new IllegalStateException(body + " failed on attempt " + context.attempt());
        }
    }

    private static String body(DeliveryContext context) {
        return new String(context.body(), StandardCharsets.UTF_8);
    }

    private void stopAll() throws InterruptedException {
        for (RetryingConsumer consumer : consumers) {
            assertThat(consumer.stop(Duration.ofSeconds(10))).isTrue();
        }
    }

    private List<Delivery> of(String service) {
        return deliveries.stream().filter(delivery -> delivery.service().equals(service)).toList();
    }

    private long count(String service) {
        return of(service).size();
    }

    private int attemptsSoFar(String service) {
        return of(service).size() - 1;
    }

    private int attemptsOf(String body) {
        return (int) deliveries.stream().filter(delivery -> delivery.body().equals(body)).count();
    }

    private Delivery last(String body) {
        return deliveries.stream().filter(delivery -> delivery.body().equals(body)).reduce((first, second) -> second)
                .orElseThrow();
    }

    private static Duration delay(int tier) {
        return RetryTopology.ORDERS.tier(tier).delay();
    }
}
