package io.github.retrytopology.runtime.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class HeldTest {

    @Test
    void theLowestIsTheFirstTagNotLetGo() {
        Held held = new Held();
        assertThat(held.lowest()).isEqualTo(Long.MAX_VALUE);
        for (long tag = 101; tag <= 105; tag++) {
            held.add(tag);
        }
        held.release(102);
        held.release(103);
        assertThat(held.lowest()).isEqualTo(101);
        held.release(101);
        assertThat(held.lowest()).isEqualTo(104);
        held.release(105);
        held.release(104);
        assertThat(held.lowest()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aTagNotHeldIsIgnored() {
        Held held = new Held();
        held.add(7);
        held.release(3);
        held.release(8);
        held.release(7);
        held.release(7);
        assertThat(held.lowest()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aTagArrivingOutOfOrderIsPutInItsPlace() {
        Held held = new Held();
        held.add(5);
        held.add(9);
        held.add(7);
        held.release(5);
        assertThat(held.lowest()).isEqualTo(7);
        held.release(7);
        assertThat(held.lowest()).isEqualTo(9);
    }

    @Test
    void agreesWithASortedSetWhateverTheOrderOfAnswers() {
        Random random = new Random(20261122);
        Held held = new Held();
        TreeSet<Long> expected = new TreeSet<>();
        List<Long> out = new ArrayList<>();
        long next = 1;
        for (int step = 0; step < 200_000; step++) {
            if (out.isEmpty() || random.nextInt(100) < 52) {
                next += random.nextInt(20) == 0 ? 1 + random.nextInt(1_000) : 1; // tags other lives took
                held.add(next);
                expected.add(next);
                out.add(next);
            } else {
                // Mostly the oldest first, as acknowledgements go; now and then any.
                int index = random.nextInt(10) < 8 ? 0 : random.nextInt(out.size());
                long tag = out.remove(index);
                held.release(tag);
                expected.remove(tag);
            }
            assertThat(held.lowest()).isEqualTo(expected.isEmpty() ? Long.MAX_VALUE : expected.first());
        }
    }

    @Test
    void oneTagHeldLongDoesNotMakeItGrowWithTheTagsLetGoBehindIt() throws Exception {
        Held held = new Held();
        held.add(1);
        for (long tag = 2; tag < 1_000_000; tag++) {
            held.add(tag);
            held.release(tag);
        }
        assertThat(held.lowest()).isEqualTo(1);
        java.lang.reflect.Field ring = Held.class.getDeclaredField("ring");
        ring.setAccessible(true);
        assertThat(((long[]) ring.get(held)).length).isLessThanOrEqualTo(128);
    }
}
