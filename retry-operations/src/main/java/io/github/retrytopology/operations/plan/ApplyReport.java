package io.github.retrytopology.operations.plan;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

/**
 * What an {@code apply} did and left, and the plan it leaves behind.
 *
 * @param before the plan it worked from
 * @param steps each object it changed, or left as it was with the reason, in the order it went
 * @param after the plan once it was done, read again from the broker
 */
public record ApplyReport(Plan before, List<Step> steps, Plan after) {

    public ApplyReport {
        requireNonNull(before, "before");
        steps = List.copyOf(steps);
        requireNonNull(after, "after");
    }

    /** Whether it changed nothing on the broker. */
    public boolean changedNothing() {
        return steps.stream().noneMatch(step -> step.outcome() == Outcome.DONE);
    }

    /** The steps that changed something. */
    public List<Step> done() {
        return steps.stream().filter(step -> step.outcome() == Outcome.DONE).toList();
    }

    /** The objects it left as they were, and why. */
    public List<Step> left() {
        return steps.stream().filter(step -> step.outcome() == Outcome.LEFT).toList();
    }

    /**
     * One object of the plan and what became of it.
     *
     * @param entry its entry in the plan before
     * @param outcome whether it was changed
     * @param detail what was done, or why not, in a sentence
     */
    public record Step(PlanEntry entry, Outcome outcome, String detail) {

        public Step {
            requireNonNull(entry, "entry");
            requireNonNull(outcome, "outcome");
            requireNonNull(detail, "detail");
        }

        /** The step as a line a person reads. */
        public String describe() {
            return (outcome == Outcome.DONE ? "done: " : "left: ") + entry.object() + ": " + detail;
        }
    }

    /** Whether an object was changed. */
    public enum Outcome {
        /** Changed as the plan said. */
        DONE,
        /** Left as it was: the reason says what it takes. */
        LEFT
    }

    /** Collects the steps as they go. */
    static final class Builder {
        private final Plan before;
        private final List<Step> steps = new ArrayList<>();

        Builder(Plan before) {
            this.before = before;
        }

        Step add(PlanEntry entry, Outcome outcome, String detail) {
            Step step = new Step(entry, outcome, detail);
            steps.add(step);
            return step;
        }

        ApplyReport build(Plan after) {
            return new ApplyReport(before, steps, after);
        }
    }
}
