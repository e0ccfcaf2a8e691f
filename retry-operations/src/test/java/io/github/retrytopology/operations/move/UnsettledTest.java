package io.github.retrytopology.operations.move;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class UnsettledTest {

    @Test
    void aMultipleConfirmSettlesEveryCopyUpToItsSequence() {
        Unsettled unsettled = published(1, 10, 100);

        unsettled.confirm(5, true, true);

        assertThat(unsettled.awaiting()).isEqualTo(5);
        assertThat(unsettled.confirmedRun(Long.MAX_VALUE)).isEqualTo(5);
        assertThat(unsettled.tag(4)).isEqualTo(104);
    }

    @Test
    void aRunOfConfirmedCopiesEndsAtTheFirstThatAwaitsOrWasRefused() {
        Unsettled unsettled = published(1, 6, 1);

        unsettled.confirm(1, false, true);
        unsettled.confirm(3, false, true);
        unsettled.confirm(2, false, false);

        assertThat(unsettled.confirmedRun(Long.MAX_VALUE)).isEqualTo(1);
        assertThat(unsettled.confirmed(2)).isTrue();
        assertThat(unsettled.confirmed(1)).isFalse();
        assertThat(unsettled.awaiting()).isEqualTo(3);
    }

    @Test
    void aRunStopsAtTheMostItMayAcknowledge() {
        Unsettled unsettled = published(1, 10, 1);
        unsettled.confirm(10, true, true);

        assertThat(unsettled.confirmedRun(3)).isEqualTo(3);
        assertThat(unsettled.confirmedRun(0)).isZero();
    }

    @Test
    void settledCopiesAreForgottenAndLaterConfirmsOfThemIgnored() {
        Unsettled unsettled = published(1, 4, 1);
        unsettled.confirm(2, true, true);
        unsettled.settle(2);

        unsettled.confirm(1, false, false);
        unsettled.confirm(2, true, true);

        assertThat(unsettled.size()).isEqualTo(2);
        assertThat(unsettled.awaiting()).isEqualTo(2);
        assertThat(unsettled.tag(0)).isEqualTo(3);
        unsettled.confirm(4, false, true);
        assertThat(unsettled.confirmedRun(Long.MAX_VALUE)).isZero();
        unsettled.confirm(3, false, true);
        assertThat(unsettled.confirmedRun(Long.MAX_VALUE)).isEqualTo(2);
    }

    @Test
    void growsPastItsFirstCapacityAcrossTheWrap() {
        Unsettled unsettled = published(1, 1_000, 1);
        unsettled.confirm(1_000, true, true);
        unsettled.settle(1_000);
        for (long sequence = 1_001; sequence <= 4_000; sequence++) {
            unsettled.add(sequence, sequence);
        }

        unsettled.confirm(3_000, true, true);

        assertThat(unsettled.size()).isEqualTo(3_000);
        assertThat(unsettled.confirmedRun(Long.MAX_VALUE)).isEqualTo(2_000);
        assertThat(unsettled.tag(2_999)).isEqualTo(4_000);
    }

    @Test
    void refusingWhatAwaitsLeavesTheConfirmedAsTheyAre() {
        Unsettled unsettled = published(1, 3, 1);
        unsettled.confirm(1, false, true);

        unsettled.refuseAwaiting();

        assertThat(unsettled.awaiting()).isZero();
        assertThat(unsettled.confirmedRun(Long.MAX_VALUE)).isEqualTo(1);
        assertThat(unsettled.confirmed(2)).isFalse();
    }

    @Test
    void refusesAPublishThatIsNotTheNextInSequence() {
        Unsettled unsettled = published(1, 2, 1);

        assertThatThrownBy(() -> unsettled.add(5, 9)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("publish 5 follows 2");
    }

    /** Copies of sequences {@code first} to {@code last}, their originals' tags counting from {@code firstTag}. */
    private static Unsettled published(long first, long last, long firstTag) {
        Unsettled unsettled = new Unsettled();
        for (long sequence = first; sequence <= last; sequence++) {
            unsettled.add(sequence, firstTag + sequence - first);
        }
        return unsettled;
    }
}
