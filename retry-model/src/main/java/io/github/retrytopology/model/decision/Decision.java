package io.github.retrytopology.model.decision;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/** What to do with a message whose handling failed: retry it after a delay, or park it. */
public sealed interface Decision permits Decision.Retry, Decision.Park {

    /**
     * Retry through a delay tier.
     *
     * @param tier the tier to wait in, numbered from 1
     * @param delay how long the tier waits
     */
    record Retry(int tier, Duration delay) implements Decision {
        public Retry {
            if (tier < 1) {
                throw new IllegalArgumentException("tiers are numbered from 1, got " + tier);
            }
            requireNonNull(delay, "delay");
        }
    }

    /**
     * Send to the parking lot, where the message waits for a person.
     *
     * @param reason why
     * @param detail the reason in a sentence, for the parked message's headers and the logs
     */
    record Park(ParkReason reason, String detail) implements Decision {
        public Park {
            requireNonNull(reason, "reason");
            requireNonNull(detail, "detail");
        }
    }
}
