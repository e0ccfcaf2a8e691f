package io.github.retrytopology.model.decision;

import static java.time.Duration.ofMillis;
import static java.time.Duration.ofMinutes;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void growsUntilItsMaximumAndStopsThere() {
        Backoff backoff = Backoff.exponential(ofSeconds(10), new BigDecimal("3"), ofMinutes(5));

        assertThat(backoff.tiers(10)).containsExactly(ofSeconds(10), ofSeconds(30), ofSeconds(90), ofSeconds(270), ofMinutes(5));
    }

    @Test
    void growsOnlyAsFarAsTheRetriesNeed() {
        Backoff backoff = Backoff.exponential(ofSeconds(1), new BigDecimal("2"));

        assertThat(backoff.tiers(3)).containsExactly(ofSeconds(1), ofSeconds(2), ofSeconds(4));
        assertThat(backoff.tiers(0)).isEmpty();
    }

    @Test
    void roundsFractionalGrowthToTheMillisecond() {
        Backoff backoff = Backoff.exponential(ofMillis(1000), new BigDecimal("1.5"));

        assertThat(backoff.tiers(4)).containsExactly(ofMillis(1000), ofMillis(1500), ofMillis(2250), ofMillis(3375));
    }

    @Test
    void aMultiplierOfOneIsOneTier() {
        assertThat(Backoff.exponential(ofSeconds(5), BigDecimal.ONE).tiers(10)).containsExactly(ofSeconds(5));
    }

    @Test
    void stopsExpandingPastTheTierLimit() {
        assertThat(Backoff.exponential(ofMillis(1), new BigDecimal("1.0001")).tiers(Integer.MAX_VALUE))
                .hasSize(RetryPolicy.MAX_TIERS + 1);
    }

    @Test
    void delaysAreTakenAsListed() {
        assertThat(Backoff.delays(ofSeconds(10), ofMinutes(1)).tiers(5)).containsExactly(ofSeconds(10), ofMinutes(1));
        assertThat(Backoff.delays(ofSeconds(10), ofMinutes(1)).tiers(1)).containsExactly(ofSeconds(10));
    }

    @Test
    void refusesBackoffsThatShrinkOrStartAtNothing() {
        assertThatThrownBy(() -> Backoff.exponential(ofSeconds(1), new BigDecimal("0.5"))).hasMessageContaining("shrink");
        assertThatThrownBy(() -> Backoff.exponential(ofSeconds(10), BigDecimal.TEN, ofSeconds(1)))
                .hasMessageContaining("shorter than initial");
        assertThatThrownBy(() -> Backoff.delays(ofSeconds(0))).hasMessageContaining("positive");
    }
}
