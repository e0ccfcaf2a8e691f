package io.github.retrytopology.model.decision;

import static java.time.Duration.ofMillis;
import static java.time.Duration.ofMinutes;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which delays RabbitMQ's delayed retry can wait, {@code min × n} up to {@code max}, and which it cannot. */
class BrokerDelayTest {

    @Test
    void growsByItsMinimumUpToItsMaximum() {
        BrokerDelay delay = new BrokerDelay(ofMillis(200), ofMillis(700));

        assertThat(List.of(delay.before(1), delay.before(2), delay.before(3), delay.before(4), delay.before(100)))
                .containsExactly(ofMillis(200), ofMillis(400), ofMillis(600), ofMillis(700), ofMillis(700));
        assertThat(delay.before(Integer.MAX_VALUE)).isEqualTo(ofMillis(700));
    }

    @Test
    void expressesALinearRampThatThenRepeats() {
        assertThat(BrokerDelay.of(List.of(ofSeconds(1), ofSeconds(2), ofSeconds(3)), 5))
                .contains(new BrokerDelay(ofSeconds(1), ofSeconds(3)));
        assertThat(BrokerDelay.of(List.of(ofSeconds(5)), 9)).contains(new BrokerDelay(ofSeconds(5), ofSeconds(5)));
    }

    @Test
    void expressesOnlyWhatItsAttemptsReach() {
        // Two retries wait 1s and 2s; the broker never gets to wait a third time, so the ramp may stop anywhere.
        assertThat(BrokerDelay.of(List.of(ofSeconds(1), ofSeconds(2)), 2)).contains(new BrokerDelay(ofSeconds(1), ofSeconds(2)));
        // An exponential backoff of 1s, 2s, 4s is 1s, 2s for two retries.
        assertThat(BrokerDelay.of(new Backoff.Exponential(ofSeconds(1), BigDecimal.valueOf(2), Optional.empty()).tiers(2), 2))
                .contains(new BrokerDelay(ofSeconds(1), ofSeconds(2)));
    }

    @Test
    void cannotExpressDelaysThatDoNotGrowByTheFirst() {
        assertThat(BrokerDelay.of(List.of(ofSeconds(10), ofMinutes(1), ofMinutes(10)), 3)).isEmpty();
        assertThat(BrokerDelay.of(List.of(ofSeconds(1), ofSeconds(2), ofSeconds(4)), 3)).isEmpty();
        assertThat(BrokerDelay.of(List.of(ofSeconds(2), ofSeconds(1)), 2)).isEmpty();
        // The broker's second delay is twice its first.
        assertThat(BrokerDelay.of(List.of(ofSeconds(1), ofSeconds(3)), 2)).isEmpty();
        assertThat(BrokerDelay.of(List.of(), 3)).isEmpty();
    }

    @Test
    void theNearestKeepsTheFirstDelayAndGrowsByItToTheLongest() {
        BrokerDelay nearest = BrokerDelay.nearest(List.of(ofSeconds(10), ofMinutes(1), ofMinutes(10)), 3);

        assertThat(nearest).isEqualTo(new BrokerDelay(ofSeconds(10), ofMinutes(10)));
        assertThat(nearest.describe(3)).isEqualTo("[10s, 20s, 30s]");
        assertThat(BrokerDelay.nearest(List.of(ofSeconds(1), ofSeconds(4)), 5).describe(5)).isEqualTo("[1s, 2s, 3s, 4s]");
    }

    @Test
    void describesALongRampByItsEnds() {
        assertThat(new BrokerDelay(ofSeconds(1), ofSeconds(90)).describe(200))
                .isEqualTo("[1s, 2s, 3s, 4s, 5s, 6s, ..., 90s]");
        assertThat(new BrokerDelay(ofSeconds(30), ofMinutes(2)).describe(2)).isEqualTo("[30s, 1m]");
    }

    @Test
    void refusesARampThatCannotBe() {
        assertThatThrownBy(() -> new BrokerDelay(Duration.ZERO, ofSeconds(1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BrokerDelay(ofSeconds(2), ofSeconds(1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void countsAttemptsFromTheBrokerOnlyWhereTheBrokerRetries() {
        assertThat(DelayBackend.TIER_QUEUES.attempt(2, 5)).isEqualTo(3);
        assertThat(DelayBackend.BROKER.attempt(0, 2)).isEqualTo(3);
        // A message retried twice through tier queues before its service moved to the broker, then once there.
        assertThat(DelayBackend.BROKER.attempt(2, 1)).isEqualTo(4);
        assertThat(DelayBackend.BROKER.attempt(Integer.MAX_VALUE, Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
        assertThat(DelayBackend.BROKER.attempt(-1, -1)).isEqualTo(1);
    }
}
