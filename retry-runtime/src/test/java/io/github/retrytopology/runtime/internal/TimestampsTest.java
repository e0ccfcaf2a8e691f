package io.github.retrytopology.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TimestampsTest {

    @Test
    void writesTheInstantToTheMillisecondInFixedWidth() {
        assertThat(Timestamps.format(Instant.parse("2026-11-22T17:40:54.276Z"))).isEqualTo("2026-11-22T17:40:54.276Z");
        assertThat(Timestamps.format(Instant.parse("2026-11-22T17:40:54Z"))).isEqualTo("2026-11-22T17:40:54.000Z");
        assertThat(Timestamps.format(Instant.parse("2026-11-22T17:40:54.009999999Z")))
                .isEqualTo("2026-11-22T17:40:54.009Z");
        assertThat(Timestamps.format(Instant.EPOCH)).isEqualTo("1970-01-01T00:00:00.000Z");
    }

    @Test
    void readsBackAsTheSameMillisecondWhicheverSecondCameBefore() {
        SplittableRandom random = new SplittableRandom(20261122);
        for (int i = 0; i < 10_000; i++) {
            // Times going backwards and forwards, and several in one second, as clocks of several threads give.
            Instant instant = Instant.ofEpochSecond(random.nextLong(0, 253_402_300_799L),
                    random.nextInt(1_000_000_000));
            for (Instant time : new Instant[] {instant, instant.plusMillis(1), instant.minusSeconds(1)}) {
                String text = Timestamps.format(time);
                assertThat(Instant.parse(text)).isEqualTo(time.truncatedTo(ChronoUnit.MILLIS));
                assertThat(text).hasSize(24);
            }
        }
    }
}
