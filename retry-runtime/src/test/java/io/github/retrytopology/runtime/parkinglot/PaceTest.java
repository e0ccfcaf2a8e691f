package io.github.retrytopology.runtime.parkinglot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PaceTest {

    private long now = 1_000;
    private final List<Long> sleeps = new ArrayList<>();
    private final Pace tenASecond = new Pace(10, () -> now, nanos -> {
        sleeps.add(nanos);
        now += nanos;
    });

    @Test
    void letsTheFirstGoAtOnceAndSpacesTheOthers() throws InterruptedException {
        tenASecond.await();
        tenASecond.await();
        now += 30_000_000;
        tenASecond.await();

        assertThat(sleeps).containsExactly(100_000_000L, 70_000_000L);
    }

    @Test
    void aPauseLongerThanTheIntervalLeadsToNoBurst() throws InterruptedException {
        tenASecond.await();
        now += 1_000_000_000;
        tenASecond.await();
        tenASecond.await();

        assertThat(sleeps).containsExactly(100_000_000L);
    }
}
