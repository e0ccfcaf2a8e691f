package io.github.retrytopology.operations.plan;

/**
 * What {@code apply} may do besides the safe part (creating what is missing, updating policies, adding
 * bindings).
 *
 * @param prune delete orphans: queues only when they hold no message and have no consumer, their policies
 *     only when their queue goes, their bindings unless their queue still has consumers
 * @param migrate recreate the queues whose type or arguments differ, moving their messages to a temporary
 *     queue and back, publisher-confirmed before acknowledged; refused for a queue with consumers
 */
public record ApplyOptions(boolean prune, boolean migrate) {

    /** The safe part only. */
    public static ApplyOptions safe() {
        return new ApplyOptions(false, false);
    }
}
