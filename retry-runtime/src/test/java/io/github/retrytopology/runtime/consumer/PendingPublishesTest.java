package io.github.retrytopology.runtime.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Our own bookkeeping of sends and their confirms: each republish settles once, whatever order news comes in. */
class PendingPublishesTest {

    private final PendingPublishes pending = new PendingPublishes();

    @Test
    void aConfirmTakesOutOneSend() {
        pending.add(send(republish(), 1, 0));
        pending.add(send(republish(), 2, 0));

        assertThat(pending.take(2, false)).extracting(send -> send.sequence).containsExactly(2L);
        assertThat(pending.size()).isEqualTo(1);
    }

    @Test
    void aMultipleConfirmTakesOutEveryEarlierSend() {
        pending.add(send(republish(), 1, 0));
        pending.add(send(republish(), 2, 0));
        pending.add(send(republish(), 3, 0));

        assertThat(pending.take(2, true)).extracting(send -> send.sequence).containsExactly(1L, 2L);
        assertThat(pending.size()).isEqualTo(1);
    }

    @Test
    void aReturnIsRememberedForTheConfirmThatFollows() {
        pending.add(send(republish(), 1, 0));

        pending.returned(1, "312 NO_ROUTE");

        assertThat(pending.take(1, false)).singleElement().extracting(PendingPublishes.Send::returned)
                .isEqualTo("312 NO_ROUTE");
    }

    @Test
    void overdueSendsStayInPlaceSoThatALateConfirmStillCounts() {
        pending.add(send(republish(), 1, 1_000));
        pending.add(send(republish(), 2, 5_000));

        assertThat(pending.overdue(999)).isEmpty();
        assertThat(pending.overdue(1_000)).extracting(send -> send.sequence).containsExactly(1L);
        assertThat(pending.size()).isEqualTo(2);
    }

    @Test
    void deadlinesCompareAcrossTheMonotonicClocksWrapAround() {
        pending.add(send(republish(), 1, Long.MAX_VALUE - 10));

        assertThat(pending.overdue(Long.MAX_VALUE - 11)).isEmpty();
        assertThat(pending.overdue(Long.MIN_VALUE + 5)).hasSize(1);
    }

    @Test
    void aClosedChannelTakesEverySendAndLaterNewsOfThemFindsNothing() {
        pending.add(send(republish(), 1, 0));
        pending.add(send(republish(), 2, 0));

        assertThat(pending.clear()).hasSize(2);
        assertThat(pending.take(2, true)).isEmpty();
        assertThat(pending.remove(1)).isNull();
    }

    @Test
    void theFirstConfirmedSendSettlesARepublishAndLaterOnesDoNot() {
        Republish republish = republish();
        assertThat(republish.sending()).isTrue();
        assertThat(republish.sending()).isTrue();

        assertThat(republish.confirmed()).isTrue();
        assertThat(republish.confirmed()).isFalse();
        assertThat(republish.sending()).as("settled: no more sends").isFalse();
        assertThat(republish.abandon()).isFalse();
    }

    @Test
    void aRepublishIsSentAgainOnlyWhenNoneOfItsSendsIsLeft() {
        Republish republish = republish();
        republish.sending();
        republish.sending();

        assertThat(republish.failed()).as("another send may still be confirmed").isFalse();
        assertThat(republish.failed()).isTrue();
        assertThat(republish.waiting()).isTrue();
        assertThat(republish.refusals()).isEqualTo(1);
        assertThat(republish.sending()).isTrue();
        assertThat(republish.waiting()).isFalse();
    }

    @Test
    void anAbandonedRepublishIsAbandonedOnce() {
        Republish republish = republish();
        republish.sending();

        assertThat(republish.abandon()).isTrue();
        assertThat(republish.abandon()).isFalse();
        assertThat(republish.confirmed()).isFalse();
    }

    private static Republish republish() {
        return new Republish(null, null, null, "orders.retry.1", null, 0);
    }

    private static PendingPublishes.Send send(Republish republish, long sequence, long deadline) {
        return new PendingPublishes.Send(republish, sequence, deadline);
    }
}
