package io.github.retrytopology.runtime.headers;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.impl.LongStringHelper;
import io.github.retrytopology.model.decision.Decision;
import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.model.headers.Header;
import io.github.retrytopology.runtime.amqp091.Received;
import io.github.retrytopology.runtime.amqp091.Republishing;
import io.github.retrytopology.runtime.internal.HeaderWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RetryHeadersTest {

    private static final AMQP.BasicProperties PLAIN = new AMQP.BasicProperties.Builder().messageId("m-1").build();

    private static final Instant FIRST = Instant.parse("2026-11-22T10:00:00Z");
    private static final Instant LATER = FIRST.plusSeconds(30);
    private static final Envelope FROM_EXCHANGE = new Envelope(7, false, "shop.events", "order.created");
    private static final Envelope FROM_TIER = new Envelope(8, false, "", "orders");
    private static final Decision RETRY = new Decision.Retry(1, Duration.ofSeconds(10));
    private static final java.util.Set<String> TIERS = java.util.Set.of("orders.retry.1", "orders.retry.2");

    @Test
    void aFirstFailureRecordsWhereTheMessageCameFromAndWhatFailed() {
        Map<String, Object> headers = failed(RetryHeaders.of(Map.of("tenant", "acme")), FROM_EXCHANGE, 1, "boom", RETRY,
                FIRST);

        RetryHeaders read = RetryHeaders.of(headers);
        assertThat(read.attempts()).isEqualTo(1);
        assertThat(read.originalExchange()).hasValue("shop.events");
        assertThat(read.originalRoutingKey()).hasValue("order.created");
        assertThat(read.firstFailure()).hasValue(FIRST);
        assertThat(read.lastFailure()).hasValue(FIRST);
        assertThat(read.exception()).hasValue("java.lang.IllegalStateException");
        assertThat(read.exceptionMessage()).hasValue("boom");
        assertThat(read.failures()).containsExactly("attempt 1 at 2026-11-22T10:00:00.000Z: java.lang.IllegalStateException: boom");
        assertThat(read.parkReason()).isEmpty();
        assertThat(headers).containsEntry("tenant", "acme");
    }

    @Test
    void aLaterFailureKeepsTheOriginAndFirstFailureTime() {
        Map<String, Object> first = failed(RetryHeaders.of(null), FROM_EXCHANGE, 1, "one", RETRY, FIRST);
        Map<String, Object> second = failed(RetryHeaders.of(asBroker(first)), FROM_TIER, 2, "two", RETRY, LATER);

        RetryHeaders read = RetryHeaders.of(second);
        assertThat(read.attempts()).isEqualTo(2);
        assertThat(read.originalRoutingKey()).hasValue("order.created");
        assertThat(read.originalExchange()).hasValue("shop.events");
        assertThat(read.firstFailure()).hasValue(FIRST);
        assertThat(read.lastFailure()).hasValue(LATER);
        assertThat(read.failures()).hasSize(2).last().asString().startsWith("attempt 2 at 2026-11-22T10:00:30.000Z");
    }

    @Test
    void aFailureAfterOthersThatLeftNoHeadersRecordsItAsTheLastAndNoFirst() {
        // The broker delayed attempts 1 to 3 itself: a reject changes nothing on the message.
        Decision.Park park = new Decision.Park(ParkReason.ATTEMPTS_EXHAUSTED, "attempt 4 of 4 failed");
        Map<String, Object> headers = failed(RetryHeaders.of(Map.of(Header.X_DELIVERY_COUNT.name(), 3)), FROM_EXCHANGE, 4,
                "boom", park, LATER);

        RetryHeaders read = RetryHeaders.of(headers);
        assertThat(headers).doesNotContainKeys(Header.FIRST_FAILURE.name(), Header.FAILURES.name());
        assertThat(read.firstFailure()).isEmpty();
        assertThat(read.lastFailure()).hasValue(LATER);
        assertThat(read.failures()).containsExactly("attempt 4 at 2026-11-22T10:00:30.000Z: java.lang.IllegalStateException: boom");
    }

    @Test
    void dropsTheBrokersDeliveryCount() {
        Map<String, Object> headers = failed(RetryHeaders.of(Map.of(Header.X_DELIVERY_COUNT.name(), 3)), FROM_EXCHANGE, 1,
                "boom", RETRY, FIRST);

        assertThat(headers).doesNotContainKey(Header.X_DELIVERY_COUNT.name());
    }

    @Test
    void recordsAParkWithItsReason() {
        Decision.Park park = new Decision.Park(ParkReason.ATTEMPTS_EXHAUSTED, "attempt 4 of 4 failed");

        RetryHeaders read = RetryHeaders.of(failed(RetryHeaders.of(null), FROM_EXCHANGE, 4, "boom", park, LATER));

        assertThat(read.parkReason()).hasValue(ParkReason.ATTEMPTS_EXHAUSTED);
        assertThat(read.parkDetail()).hasValue("attempt 4 of 4 failed");
        assertThat(read.parkedAt()).hasValue(LATER);
    }

    @Test
    void aReplayResetsTheAttemptsAndKeepsTheOrigin() {
        Decision.Park park = new Decision.Park(ParkReason.ATTEMPTS_EXHAUSTED, "attempt 4 of 4 failed");
        Map<String, Object> parked = new HashMap<>(failed(RetryHeaders.of(Map.of("tenant", "acme")), FROM_EXCHANGE, 4,
                "boom", park, LATER));
        parked.put(Header.X_DEATH.name(), List.of(death("orders.retry.1", "expired", "", "orders.retry.1")));

        Instant replayedAt = LATER.plusSeconds(60);
        Map<String, Object> replayed = HeaderWriter.forReplay(RetryHeaders.of(asBroker(parked)), replayedAt, Optional.of("alice"));

        RetryHeaders read = RetryHeaders.of(replayed);
        assertThat(read.attempts()).isZero();
        assertThat(read.replays()).isEqualTo(1);
        assertThat(read.replayedBy()).hasValue("alice");
        assertThat(read.replayedAt()).hasValue(replayedAt);
        assertThat(read.originalRoutingKey()).hasValue("order.created");
        assertThat(read.exception()).isEmpty();
        assertThat(read.parkReason()).isEmpty();
        assertThat(read.deaths()).isEmpty();
        assertThat(replayed.get("tenant")).hasToString("acme");
        assertThat(replayed).doesNotContainKey(Header.FAILURES.name());
    }

    @Test
    void aReplayInNoOnesNameDropsTheNameOfAnEarlierOne() {
        Map<String, Object> once = HeaderWriter.forReplay(RetryHeaders.of(Map.of()), FIRST, Optional.of("alice"));

        RetryHeaders twice = RetryHeaders.of(HeaderWriter.forReplay(RetryHeaders.of(once), LATER, Optional.empty()));

        assertThat(twice.replays()).isEqualTo(2);
        assertThat(twice.replayedBy()).isEmpty();
        assertThat(twice.replayedAt()).hasValue(LATER);
    }

    @Test
    void aReplayOfAMessageTheBrokerParkedTakesItsOriginFromXDeath() {
        Map<String, Object> parked = Map.of(Header.X_DEATH.name(),
                List.of(death("orders", "delivery_limit", "shop.events", "order.created")),
                Header.X_DELIVERY_COUNT.name(), 0);

        RetryHeaders read = RetryHeaders.of(HeaderWriter.forReplay(RetryHeaders.of(parked), LATER, Optional.empty()));

        assertThat(read.originalRoutingKey()).hasValue("order.created");
        assertThat(read.originalExchange()).hasValue("shop.events");
        assertThat(read.deliveryCount()).isZero();
    }

    @Test
    void readsXDeathAsTheBrokerWritesIt() {
        RetryHeaders read = RetryHeaders.of(Map.of(Header.X_DEATH.name(),
                List.of(death("orders.retry.2", "expired", "", "orders.retry.2"),
                        death("orders.retry.1", "expired", "", "orders.retry.1"))));

        assertThat(read.deaths()).extracting(RetryHeaders.Death::queue).containsExactly("orders.retry.2", "orders.retry.1");
        assertThat(read.deaths().get(0).time()).hasValue(FIRST);
        assertThat(read.deaths().get(0).count()).isEqualTo(2);
    }

    @Test
    void republishingKeepsEveryPropertyAndMakesTheMessagePersistent() {
        AMQP.BasicProperties original = new AMQP.BasicProperties.Builder().contentType("application/json")
                .messageId("m-1").correlationId("c-1").timestamp(Date.from(FIRST)).deliveryMode(1).priority(3).build();

        AMQP.BasicProperties republished = Republishing.republish(original, Map.of("tenant", "acme"));

        assertThat(republished.getContentType()).isEqualTo("application/json");
        assertThat(republished.getMessageId()).isEqualTo("m-1");
        assertThat(republished.getCorrelationId()).isEqualTo("c-1");
        assertThat(republished.getTimestamp()).isEqualTo(Date.from(FIRST));
        assertThat(republished.getPriority()).isEqualTo(3);
        assertThat(republished.getDeliveryMode()).isEqualTo(2);
        assertThat(republished.getHeaders()).containsEntry("tenant", "acme");
        Republishing.Outgoing outgoing = Republishing.outgoing(original, new java.util.HashMap<>(Map.of("tenant", "acme")));
        assertThat(RetryHeaders.of(outgoing.stamped(7).getHeaders()).publishId()).hasValue(7L);
        assertThat(RetryHeaders.of(outgoing.stamped(8).getHeaders()).publishId()).as("each send its own").hasValue(8L);
        assertThat(outgoing.stamped(9).getDeliveryMode()).isEqualTo(2);
    }

    @Test
    void aMessagePublishedThroughAnExchangeIsAFirstAttemptWhateverRetryHeadersItCarries() {
        Map<String, Object> copied = Map.of(Header.ATTEMPTS.name(), 3, Header.ORIGINAL_ROUTING_KEY.name(),
                LongStringHelper.asLongString("x.y"), Header.FIRST_FAILURE.name(), LongStringHelper.asLongString(
                        FIRST.toString()), "tenant", LongStringHelper.asLongString("acme"));

        RetryHeaders arrived = RetryHeaders.arrival(Received.headers(copied), "shop.events", TIERS);

        assertThat(arrived.provenance()).isEqualTo(RetryHeaders.Provenance.PUBLISHED);
        assertThat(arrived.attempts()).isZero();
        assertThat(arrived.originalRoutingKey()).isEmpty();
        assertThat(arrived.firstFailure()).isEmpty();
        assertThat(arrived.delivered()).as("the handler still sees them").containsKeys(Header.ATTEMPTS.name(), "tenant");
        Map<String, Object> next = failed(arrived, FROM_EXCHANGE, 1, "boom", RETRY, LATER);
        assertThat(RetryHeaders.of(next).originalRoutingKey()).hasValue("order.created");
        assertThat(RetryHeaders.of(next).firstFailure()).hasValue(LATER);
        assertThat(next).containsKey("tenant");
    }

    @Test
    void aMessageBackFromOneOfTheServicesTiersKeepsItsRetryHeaders() {
        Map<String, Object> headers = new HashMap<>(asBroker(failed(RetryHeaders.of(null), FROM_EXCHANGE, 1, "one", RETRY,
                FIRST)));
        headers.put(Header.X_DEATH.name(), List.of(death("orders.retry.1", "expired", "", "orders.retry.1")));

        RetryHeaders arrived = RetryHeaders.arrival(headers, "", TIERS);

        assertThat(arrived.provenance()).isEqualTo(RetryHeaders.Provenance.RETRIED);
        assertThat(arrived.attempts()).isEqualTo(1);
        assertThat(arrived.originalRoutingKey()).hasValue("order.created");
    }

    @Test
    void aMessagePublishedStraightToTheQueueWithAnotherQueuesDeathIsNotARetry() {
        Map<String, Object> headers = Map.of(Header.ATTEMPTS.name(), 3, Header.X_DEATH.name(),
                List.of(death("billing.retry.1", "expired", "", "billing.retry.1")));

        assertThat(RetryHeaders.arrival(headers, "", TIERS).attempts()).isZero();
        assertThat(RetryHeaders.arrival(headers, "", TIERS).provenance()).isEqualTo(RetryHeaders.Provenance.PUBLISHED);
    }

    @Test
    void aReplayedMessageKeepsItsOriginalRoutingKey() {
        Decision.Park park = new Decision.Park(ParkReason.ATTEMPTS_EXHAUSTED, "attempt 4 of 4 failed");
        Map<String, Object> parked = asBroker(failed(RetryHeaders.of(null), FROM_EXCHANGE, 4, "boom", park, LATER));
        Map<String, Object> replayed = HeaderWriter.forReplay(RetryHeaders.of(parked), LATER, Optional.empty());

        RetryHeaders arrived = RetryHeaders.arrival(asBroker(replayed), "", TIERS);

        assertThat(arrived.provenance()).isEqualTo(RetryHeaders.Provenance.REPLAYED);
        assertThat(arrived.originalRoutingKey()).hasValue("order.created");
        assertThat(arrived.attempts()).isZero();
    }

    @Test
    void aMessageAMigrationMovedThroughTheDefaultExchangeKeepsTheAttemptsItCarries() {
        Map<String, Object> moved = Map.of(Header.ATTEMPTS.name(), 2, Header.ADOPTED_FROM.name(),
                LongStringHelper.asLongString("orders.wait"), Header.ORIGINAL_ROUTING_KEY.name(),
                LongStringHelper.asLongString("order.created"), Header.FIRST_FAILURE.name(),
                LongStringHelper.asLongString(FIRST.toString()));

        RetryHeaders arrived = RetryHeaders.arrival(Received.headers(moved), "", TIERS);

        assertThat(arrived.provenance()).isEqualTo(RetryHeaders.Provenance.ADOPTED);
        assertThat(arrived.attempts()).isEqualTo(2);
        assertThat(arrived.adoptedFrom()).hasValue("orders.wait");
        assertThat(arrived.originalRoutingKey()).hasValue("order.created");
        assertThat(arrived.firstFailure()).hasValue(FIRST);
        Map<String, Object> next = failed(arrived, FROM_TIER, 3, "three", RETRY, LATER);
        assertThat(RetryHeaders.of(next).firstFailure()).as("its first failure, before the migration").hasValue(FIRST);
        assertThat(RetryHeaders.of(next).originalRoutingKey()).hasValue("order.created");
    }

    @Test
    void anAdoptedHeaderOnAMessagePublishedThroughAnExchangeIsAStaleCopy() {
        Map<String, Object> copied = Map.of(Header.ATTEMPTS.name(), 2, Header.ADOPTED_FROM.name(),
                LongStringHelper.asLongString("orders.wait"), "tenant", LongStringHelper.asLongString("acme"));

        RetryHeaders arrived = RetryHeaders.arrival(Received.headers(copied), "shop.events", TIERS);

        assertThat(arrived.provenance()).isEqualTo(RetryHeaders.Provenance.PUBLISHED);
        assertThat(arrived.attempts()).isZero();
        assertThat(arrived.adoptedFrom()).isEmpty();
        Map<String, Object> next = failed(arrived, FROM_EXCHANGE, 1, "one", RETRY, LATER);
        assertThat(next).as("not written back").doesNotContainKey(Header.ADOPTED_FROM.name()).containsKey("tenant");
    }

    @Test
    void aRepublishCarriesNoExpirationAndKeepsThePublishersInAHeader() {
        AMQP.BasicProperties original = new AMQP.BasicProperties.Builder().expiration("1500").build();

        AMQP.BasicProperties republished = Republishing.republish(original, Map.of());

        assertThat(republished.getExpiration()).isNull();
        assertThat(RetryHeaders.of(republished.getHeaders()).originalExpiration()).hasValue("1500");
        assertThat(RetryHeaders.of(republished.getHeaders()).messageId()).as("no message id of its own").isPresent();
    }

    @Test
    void aMessageWithAMessageIdGetsNoIdentityOfOurs() {
        AMQP.BasicProperties republished = Republishing.republish(
                new AMQP.BasicProperties.Builder().messageId("m-1").build(), Map.of());

        assertThat(RetryHeaders.of(republished.getHeaders()).messageId()).isEmpty();
    }

    /**
     * Headers as the consumer reads them back from the broker: the client reads strings as LongStrings, which the
     * 0.9.1 adapter turns back into strings.
     */
    private static Map<String, Object> asBroker(Map<String, Object> headers) {
        Map<String, Object> read = new HashMap<>();
        headers.forEach((name, value) -> read.put(name, value instanceof String text
                ? LongStringHelper.asLongString(text) : value instanceof List<?> list
                ? list.stream().map(item -> item instanceof String text ? LongStringHelper.asLongString(text) : item).toList()
                : value));
        return Received.headers(read);
    }

    /** An {@code x-death} entry as the 0.9.1 adapter hands it over. */
    private static Map<String, Object> death(String queue, String reason, String exchange, String routingKey) {
        return Map.of("queue", queue, "reason", reason, "count", 2L, "exchange", exchange,
                "routing-keys", List.of(routingKey), "time", Date.from(FIRST));
    }

    /** The headers after a failure of a message that arrived through {@code envelope}, with room for them all. */
    private static Map<String, Object> failed(RetryHeaders read, Envelope envelope, int attempt, String error,
            Decision decision, Instant at) {
        return HeaderWriter.afterFailure(read, Republishing.arrival(envelope, PLAIN), attempt,
                new IllegalStateException(error), decision, at, 100_000);
    }
}
