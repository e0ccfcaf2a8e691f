package io.github.retrytopology.operations.plan;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * One step of a migration onto an adopted spec, as {@code plan --adoption} shows it and {@code apply --adoption}
 * reports it.
 *
 * @param action what the step does
 * @param object what it acts on: a queue (its messages), a binding ({@code source -> destination (key)}), an
 *     exchange or a policy
 * @param detail where the messages go and how their attempts are counted, or why the step waits
 * @param messages the messages it moves, counted live; empty where it moves none
 * @param state whether it is still to do
 */
public record AdoptionStep(Action action, String object, String detail, OptionalLong messages, State state) {

    public AdoptionStep {
        requireNonNull(action, "action");
        requireNonNull(object, "object");
        requireNonNull(detail, "detail");
        requireNonNull(messages, "messages");
        requireNonNull(state, "state");
    }

    /** What a step does, in the order the migration takes them. */
    public enum Action {
        /** Nothing may consume the old queues while they are emptied. */
        CHECK_CONSUMERS,
        /** Carries what publishers send to an old exchange on to the spec's. */
        BRIDGE,
        /** Moves an old queue's messages into the spec's topology, their attempts in the runtime's headers. */
        MOVE,
        /** Writes the attempts of the messages of a work queue the spec keeps into the runtime's headers. */
        REWRITE,
        /** Removes a binding of the old topology. */
        UNBIND,
        /** Deletes an object of the old topology, once empty and unused. */
        DELETE;

        /** How the plan's table and JSON write it. */
        public String id() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** Where a step stands. */
    public enum State {
        /** Apply does it. */
        TO_DO,
        /** Done already: the broker shows it. */
        DONE,
        /** It cannot be done until what the detail says has changed; apply stops before it. */
        BLOCKED,
        /** Apply leaves it: it waits for an earlier step, or for {@code --delete-old}. */
        LEFT;

        /** How the plan's table and JSON write it. */
        public String id() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** Whether none of these steps is still to take or blocked: those left wait for {@code --delete-old}. */
    public static boolean finished(List<AdoptionStep> steps) {
        return steps.stream().allMatch(step -> step.state == State.DONE || step.state == State.LEFT);
    }

    /** The step as the plan's table prints it. */
    public String line() {
        String count = messages.isPresent() ? " [" + messages.getAsLong() + " messages]" : "";
        return "  " + state.id() + " " + action.id() + " " + object + count + ": " + detail;
    }
}
