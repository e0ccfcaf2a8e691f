package io.github.retrytopology.model.decision;

import static java.time.Duration.ofMinutes;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.retrytopology.model.Protocol;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The decision at its edges: the first attempt, the last, the tier after the last, and non-retryable failures. */
class RetryPolicyTest {

    private final RetryPolicy policy = new RetryPolicy(4, Backoff.delays(ofSeconds(10), ofMinutes(1)),
            List.of("java.io.IOException", "java.lang.SecurityException"));

    @Test
    void retriesTheFirstFailureThroughTheFirstTier() {
        assertThat(policy.decide(1, Result.threw(new IllegalStateException("boom")))).isEqualTo(new Decision.Retry(1, ofSeconds(10)));
    }

    @Test
    void retriesLaterFailuresThroughTheirTier() {
        assertThat(policy.decide(2, Result.threw(new IllegalStateException("boom")))).isEqualTo(new Decision.Retry(2, ofMinutes(1)));
    }

    @Test
    void repeatsTheLastTierForRetriesBeyondIt() {
        assertThat(policy.decide(3, Result.threw(new IllegalStateException("boom")))).isEqualTo(new Decision.Retry(2, ofMinutes(1)));
    }

    @Test
    void parksAfterTheLastAttempt() {
        assertThat(policy.decide(4, Result.threw(new IllegalStateException("boom"))))
                .isEqualTo(new Decision.Park(ParkReason.ATTEMPTS_EXHAUSTED, "attempt 4 of 4 failed"));
    }

    @Test
    void parksAnAttemptBeyondTheLastToo() {
        assertThat(policy.decide(7, Result.threw(new IllegalStateException("boom"))))
                .isEqualTo(new Decision.Park(ParkReason.ATTEMPTS_EXHAUSTED, "attempt 7 of 4 failed"));
    }

    @Test
    void parksAListedFailureAtOnce() {
        assertThat(policy.decide(1, Result.threw(new SecurityException("denied")))).isEqualTo(new Decision.Park(
                ParkReason.NON_RETRYABLE, "java.lang.SecurityException is non-retryable (listed: java.lang.SecurityException)"));
    }

    @Test
    void parksAFailureWhoseSuperclassIsListed() {
        assertThat(policy.decide(1, Result.threw(new java.io.FileNotFoundException("gone"))))
                .isEqualTo(new Decision.Park(ParkReason.NON_RETRYABLE,
                        "java.io.FileNotFoundException is non-retryable (listed: java.io.IOException)"));
    }

    @Test
    void parksAFailureWhoseCauseIsListed() {
        Exception failure = new UncheckedIOException(new IOException("disk"));

        assertThat(policy.decide(1, Result.threw(failure))).isInstanceOf(Decision.Park.class)
                .extracting(decision -> ((Decision.Park) decision).reason()).isEqualTo(ParkReason.NON_RETRYABLE);
    }

    @Test
    void namesTheCauseThatMatchedNotItsWrapper() {
        Exception failure = new RuntimeException("ledger said no", new java.io.FileNotFoundException("gone"));

        assertThat(policy.decide(1, Result.threw(failure))).isEqualTo(new Decision.Park(ParkReason.NON_RETRYABLE,
                "java.io.FileNotFoundException is non-retryable (listed: java.io.IOException)"));
    }

    @Test
    void parksAFailureWhoseInterfaceIsListed() {
        RetryPolicy byInterface = new RetryPolicy(3, Backoff.delays(ofSeconds(1)), List.of(Permanent.class.getName()));

        assertThat(byInterface.decide(1, Result.threw(new PermanentFailure()))).isInstanceOf(Decision.Park.class);
    }

    @Test
    void survivesACauseCycle() {
        Exception first = new IllegalStateException("first");
        Exception second = new IllegalStateException("second", first);
        first.initCause(second);

        assertThat(policy.decide(1, Result.threw(first))).isEqualTo(new Decision.Retry(1, ofSeconds(10)));
    }

    @Test
    void retriesAFailureAskedToBeRetriedWhateverItsClassUntilTheLastAttempt() {
        SecurityException listed = new SecurityException("denied");

        assertThat(policy.decide(1, Result.askedToRetry(listed))).isEqualTo(new Decision.Retry(1, ofSeconds(10)));
        assertThat(policy.decide(4, Result.askedToRetry(listed)))
                .isEqualTo(new Decision.Park(ParkReason.ATTEMPTS_EXHAUSTED, "attempt 4 of 4 failed"));
    }

    @Test
    void acknowledgesADeliveryWhoseHandlerReturned() {
        assertThat(policy.decide(4, Result.returned())).isSameAs(Decision.ACKNOWLEDGE);
    }

    @Test
    void parksWhatTheHandlerAsksToParkAtOnce() {
        assertThat(policy.decide(1, Result.askedToPark(new IllegalStateException("a person must look"))))
                .isEqualTo(new Decision.Park(ParkReason.REJECTED, "the handler parked it: a person must look"));
    }

    @Test
    void parksABodyThatCannotBeDecodedAtOnce() {
        assertThat(policy.decide(1, Result.undecodable("com.acme.Order", new IllegalArgumentException("not JSON"))))
                .isEqualTo(new Decision.Park(ParkReason.UNDECODABLE, "cannot decode the body into com.acme.Order: not JSON"));
    }

    @Test
    void parksAMessageNoHandlerTakesAtOnce() {
        assertThat(policy.decide(1, Result.noHandler("order.lost")))
                .isEqualTo(new Decision.Park(ParkReason.NO_HANDLER, "no handler takes routing key order.lost"));
    }

    @Test
    void parksTheLastPossibleAttemptWithoutOverflowing() {
        assertThat(policy.decide(Integer.MAX_VALUE, Result.threw(new IllegalStateException("boom"))))
                .isEqualTo(new Decision.Park(ParkReason.ATTEMPTS_EXHAUSTED, "attempt 2147483647 of 4 failed"));
        assertThat(policy.isLastAttempt(Integer.MAX_VALUE)).isTrue();
        assertThat(policy.isLastAttempt(3)).isFalse();
    }

    @Test
    void givesTheSameRetryForEachTierEveryTime() {
        assertThat(policy.decide(2, Result.threw(new IllegalStateException("a"))))
                .isSameAs(policy.decide(3, Result.askedToRetry(new IllegalStateException("b"))));
    }

    @Test
    void neverRetriesWhenOneAttemptIsAllowed() {
        RetryPolicy once = new RetryPolicy(1, Backoff.none(), List.of());

        assertThat(once.tiers()).isEmpty();
        assertThat(once.decide(1, Result.threw(new IllegalStateException("boom"))))
                .isEqualTo(new Decision.Park(ParkReason.ATTEMPTS_EXHAUSTED, "attempt 1 of 1 failed"));
    }

    @Test
    void usesOnlyTheTiersItsAttemptsNeed() {
        RetryPolicy twice = new RetryPolicy(2, Backoff.delays(ofSeconds(1), ofSeconds(2), ofSeconds(3)), List.of());

        assertThat(twice.tiers()).containsExactly(ofSeconds(1));
    }

    @Test
    void refusesAttemptsCountedFromZero() {
        assertThatThrownBy(() -> policy.decide(0, Result.threw(new IllegalStateException())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("counted from 1");
    }

    @Test
    void refusesPoliciesThatCannotWork() {
        assertThatThrownBy(() -> new RetryPolicy(0, Backoff.none(), List.of())).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> new RetryPolicy(3, Backoff.none(), List.of())).hasMessageContaining("has no delay to wait before a retry");
        assertThatThrownBy(() -> new RetryPolicy(3, Backoff.delays(java.time.Duration.ofDays(50)), List.of()))
                .hasMessageContaining("above RabbitMQ's largest TTL");
    }

    interface Permanent {
    }

    static final class PermanentFailure extends RuntimeException implements Permanent {
        private static final long serialVersionUID = 1L;
    }

    @Test
    void onTheBrokerRetriesByHandingBackWithTheBrokersDelay() {
        RetryPolicy broker = new RetryPolicy(5, Backoff.delays(ofSeconds(1), ofSeconds(2)), List.of(),
                DelayBackend.BROKER);

        assertThat(broker.tiers()).isEmpty();
        assertThat(broker.brokerDelay()).contains(new BrokerDelay(ofSeconds(1), ofSeconds(2)));
        assertThat(broker.decide(1, Result.threw(new IllegalStateException()))).isEqualTo(new Decision.Requeue(ofSeconds(1)));
        assertThat(broker.decide(2, Result.threw(new IllegalStateException()))).isEqualTo(new Decision.Requeue(ofSeconds(2)));
        assertThat(broker.decide(4, Result.threw(new IllegalStateException()))).isEqualTo(new Decision.Requeue(ofSeconds(2)));
        assertThat(broker.decide(5, Result.threw(new IllegalStateException()))).isInstanceOf(Decision.Park.class);
    }

    @Test
    void tellsTheDelayBeforeEachRetryWhicheverBackendWaitsIt() {
        RetryPolicy tiers = new RetryPolicy(5, Backoff.delays(ofSeconds(1), ofMinutes(1)), List.of());
        RetryPolicy broker = new RetryPolicy(5, Backoff.delays(ofSeconds(1), ofSeconds(2)), List.of(),
                DelayBackend.BROKER);

        assertThat(List.of(tiers.delayBefore(1), tiers.delayBefore(2), tiers.delayBefore(4)))
                .containsExactly(ofSeconds(1), ofMinutes(1), ofMinutes(1));
        assertThat(List.of(broker.delayBefore(1), broker.delayBefore(2), broker.delayBefore(4)))
                .containsExactly(ofSeconds(1), ofSeconds(2), ofSeconds(2));
        assertThatThrownBy(() -> broker.delayBefore(5)).hasMessageContaining("retry 5 is not one of this policy's 4");
        assertThatThrownBy(() -> tiers.delayBefore(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void onTheBrokerRefusesDelaysItCannotWait() {
        assertThatThrownBy(() -> new RetryPolicy(4, Backoff.delays(ofSeconds(10), ofMinutes(1), ofMinutes(10)), List.of(),
                DelayBackend.BROKER))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot wait [10s, 1m, 10m]; the nearest it can is [10s, 20s, 30s]");
        assertThat(new RetryPolicy(1, Backoff.none(), List.of(), DelayBackend.BROKER).brokerDelay()).isEmpty();
    }

    @Test
    void overAmqp10RetriesAfterEachListedDelayHowEverItGrows() {
        RetryPolicy amqp10 = new RetryPolicy(5, Backoff.delays(ofSeconds(10), ofMinutes(1), ofMinutes(10)), List.of(),
                DelayBackend.BROKER, Protocol.AMQP_1_0);

        assertThat(amqp10.tiers()).isEmpty();
        assertThat(amqp10.decide(1, Result.threw(new IllegalStateException()))).isEqualTo(new Decision.Requeue(ofSeconds(10)));
        assertThat(amqp10.decide(2, Result.threw(new IllegalStateException()))).isEqualTo(new Decision.Requeue(ofMinutes(1)));
        assertThat(amqp10.decide(3, Result.threw(new IllegalStateException()))).isEqualTo(new Decision.Requeue(ofMinutes(10)));
        assertThat(amqp10.decide(4, Result.threw(new IllegalStateException()))).isEqualTo(new Decision.Requeue(ofMinutes(10)));
        assertThat(amqp10.decide(5, Result.threw(new IllegalStateException()))).isInstanceOf(Decision.Park.class);
        assertThat(List.of(amqp10.delayBefore(1), amqp10.delayBefore(2), amqp10.delayBefore(3), amqp10.delayBefore(4)))
                .containsExactly(ofSeconds(10), ofMinutes(1), ofMinutes(10), ofMinutes(10));
    }

    @Test
    void overAmqp10TheQueuesOwnDelayIsTheNearestLinearOneForFailuresGivenNoTime() {
        RetryPolicy amqp10 = new RetryPolicy(4, Backoff.delays(ofSeconds(10), ofMinutes(1), ofMinutes(10)), List.of(),
                DelayBackend.BROKER, Protocol.AMQP_1_0);

        assertThat(amqp10.brokerDelay()).contains(new BrokerDelay(ofSeconds(10), ofMinutes(10)));
        assertThat(new RetryPolicy(1, Backoff.none(), List.of(), DelayBackend.BROKER, Protocol.AMQP_1_0).brokerDelay())
                .isEmpty();
    }

    @Test
    void overAmqp10RefusesTierQueues() {
        assertThatThrownBy(() -> new RetryPolicy(3, Backoff.delays(ofSeconds(1)), List.of(), DelayBackend.TIER_QUEUES,
                Protocol.AMQP_1_0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("it is consumed over AMQP 1.0, where the broker holds each retry until its delivery time, "
                        + "so tier queues are not used; remove delayBy, or set it to broker");
    }

    @Test
    void overAmqp10TheOtherRulesStillHold() {
        assertThatThrownBy(() -> new RetryPolicy(3, Backoff.none(), List.of(), DelayBackend.BROKER, Protocol.AMQP_1_0))
                .hasMessageContaining("has no delay to wait before a retry");
        assertThatThrownBy(() -> new RetryPolicy(3, Backoff.delays(java.time.Duration.ofDays(50)), List.of(),
                DelayBackend.BROKER, Protocol.AMQP_1_0)).hasMessageContaining("above RabbitMQ's largest TTL");
        assertThatThrownBy(() -> new RetryPolicy(0, Backoff.none(), List.of(), DelayBackend.BROKER, Protocol.AMQP_1_0))
                .hasMessageContaining("at least 1");
    }

    @Test
    void isConsumedOverAmqp091UnlessToldOtherwise() {
        RetryPolicy tiers = new RetryPolicy(2, Backoff.delays(ofSeconds(1)), List.of());
        RetryPolicy broker = new RetryPolicy(2, Backoff.delays(ofSeconds(1)), List.of(), DelayBackend.BROKER);
        RetryPolicy amqp10 = new RetryPolicy(2, Backoff.delays(ofSeconds(1)), List.of(), DelayBackend.BROKER,
                Protocol.AMQP_1_0);

        assertThat(tiers.protocol()).isEqualTo(Protocol.AMQP_0_9_1);
        assertThat(broker.protocol()).isEqualTo(Protocol.AMQP_0_9_1);
        assertThat(amqp10).isNotEqualTo(broker);
        RetryPolicy twin = new RetryPolicy(2, Backoff.delays(ofSeconds(1)), List.of(), DelayBackend.BROKER,
                Protocol.AMQP_1_0);
        assertThat(amqp10).isEqualTo(twin).hasSameHashCodeAs(twin);
        assertThat(amqp10.toString()).endsWith("delayBackend=broker, protocol=amqp-1.0]");
    }

    @Test
    void holdsBackFailuresOutsideTheHandlerLongerWhileTheyFollowEachOther() {
        assertThat(policy.failedOutsideHandler(1)).isEqualTo(new Decision.Requeue(java.time.Duration.ofMillis(100)));
        assertThat(policy.failedOutsideHandler(2)).isEqualTo(new Decision.Requeue(java.time.Duration.ofMillis(200)));
        assertThat(policy.failedOutsideHandler(6)).isEqualTo(new Decision.Requeue(java.time.Duration.ofMillis(3_200)));
        assertThat(policy.failedOutsideHandler(7)).isEqualTo(new Decision.Requeue(ofSeconds(5)));
        assertThat(policy.failedOutsideHandler(1_000)).isEqualTo(new Decision.Requeue(ofSeconds(5)));
        assertThatThrownBy(() -> policy.failedOutsideHandler(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("failures in a row are counted from 1, got 0");
    }

    @Test
    void parksWhatNoFrameCanCarryAsUnpublishable() {
        assertThat(policy.unpublishable("its headers take 200000 bytes", "retry-dropped-headers")).isEqualTo(
                new Decision.Park(ParkReason.UNPUBLISHABLE, "no republish of it fits the connection's frame (its "
                        + "headers take 200000 bytes): its publisher's largest headers were dropped, as "
                        + "retry-dropped-headers says"));
    }
}
