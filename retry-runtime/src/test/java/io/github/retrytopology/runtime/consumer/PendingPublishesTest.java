package io.github.retrytopology.runtime.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Our own bookkeeping of confirms: each republish settles once, whatever order the news comes in. */
class PendingPublishesTest {

    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

    private final PendingPublishes<String> pending = new PendingPublishes<>();

    @Test
    void anAckConfirmsOneRepublish() {
        pending.add(1, "p1", NOW, "first");
        pending.add(2, "p2", NOW, "second");

        assertThat(pending.ack(2, false)).containsExactly(new PendingPublishes.Settled<>("second", null));
        assertThat(pending.size()).isEqualTo(1);
    }

    @Test
    void aMultipleAckConfirmsEveryEarlierRepublish() {
        pending.add(1, "p1", NOW, "first");
        pending.add(2, "p2", NOW, "second");
        pending.add(3, "p3", NOW, "third");

        assertThat(pending.ack(2, true)).extracting(PendingPublishes.Settled::value).containsExactly("first", "second");
        assertThat(pending.size()).isEqualTo(1);
    }

    @Test
    void aReturnedRepublishFailsWhenItsAckArrives() {
        pending.add(1, "p1", NOW, "first");

        pending.returned("p1", "312 NO_ROUTE");

        assertThat(pending.ack(1, false)).singleElement().satisfies(settled -> {
            assertThat(settled.confirmed()).isFalse();
            assertThat(settled.failure()).isEqualTo("the broker returned it: 312 NO_ROUTE");
        });
    }

    @Test
    void aNackFailsTheRepublish() {
        pending.add(1, "p1", NOW, "first");

        assertThat(pending.nack(1, false)).singleElement()
                .extracting(PendingPublishes.Settled::failure).isEqualTo("the broker refused it (nack)");
    }

    @Test
    void expiresOnlyRepublishesPastTheirDeadline() {
        pending.add(1, "p1", NOW.plusSeconds(1), "early");
        pending.add(2, "p2", NOW.plusSeconds(5), "late");

        assertThat(pending.expire(NOW)).isEmpty();
        assertThat(pending.expire(NOW.plus(Duration.ofSeconds(2)))).singleElement()
                .extracting(PendingPublishes.Settled::value).isEqualTo("early");
        assertThat(pending.size()).isEqualTo(1);
    }

    @Test
    void settlesEachRepublishOnceWhateverComesLater() {
        pending.add(1, "p1", NOW, "first");

        assertThat(pending.expire(NOW)).hasSize(1);
        assertThat(pending.ack(1, false)).isEmpty();
        assertThat(pending.nack(1, true)).isEmpty();
        assertThat(pending.drain("closed")).isEmpty();
    }

    @Test
    void drainingFailsEverythingLeft() {
        pending.add(1, "p1", NOW, "first");
        pending.add(2, "p2", NOW, "second");

        assertThat(pending.drain("the channel closed")).extracting(PendingPublishes.Settled::failure)
                .containsExactly("the channel closed", "the channel closed");
        assertThat(pending.size()).isZero();
    }

    @Test
    void aCancelledRepublishIsForgotten() {
        pending.add(1, "p1", NOW, "first");

        pending.cancel(1);

        assertThat(pending.ack(1, false)).isEmpty();
        assertThat(pending.size()).isZero();
    }
}
