package io.github.retrytopology.runtime.consumer;

import java.util.HashSet;
import java.util.Set;

/**
 * Which deliveries of one channel life have been answered, by delivery tag, so that a single acknowledgement
 * with {@code multiple} set can answer many: it covers every unanswered delivery at or below its tag, and is
 * sent only up to the {@linkplain #floor() floor}, below which every delivery of the life is answered.
 *
 * <p>A delivery is marked once its answer has gone to the broker, or, for acknowledgements that go out as one,
 * by the thread that sends them, before it does. Only that thread sends acknowledgements with {@code multiple}
 * set, so that none covers a delivery answered on its own later, which the broker would refuse.
 */
final class Answers {

    /** Every tag at or below it is answered, or belongs to an earlier life of the channel. */
    private long floor;
    /** Tags above the floor answered already, while an earlier one waits. */
    private final Set<Long> above = new HashSet<>();

    /** @param floor the highest delivery tag of the channel's earlier lives; 0 for a new channel */
    Answers(long floor) {
        this.floor = floor;
    }

    /** Marks a delivery answered; returns the floor after it. */
    synchronized long answered(long tag) {
        if (tag == floor + 1) {
            floor = tag;
            while (!above.isEmpty() && above.remove(floor + 1)) {
                floor++;
            }
        } else if (tag > floor) {
            above.add(tag);
        }
        return floor;
    }

    /** Every tag at or below it is answered. */
    synchronized long floor() {
        return floor;
    }
}
