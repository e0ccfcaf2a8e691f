package io.github.retrytopology.model.decision;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * What follows a delivery's {@link Result}: acknowledge it, retry it after a delay (through a tier queue or the
 * broker's delayed retry), or park it. Only {@link RetryPolicy} makes one.
 */
public sealed interface Decision permits Decision.Acknowledge, Decision.Retry, Decision.Requeue, Decision.Park {

    /** The one acknowledgement: the handler returned. */
    Acknowledge ACKNOWLEDGE = new Acknowledge();

    /** The message is done with: acknowledge it. */
    record Acknowledge() implements Decision {
    }

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
     * Back to its queue as a failed delivery: reject it with requeue, which the broker counts as an attempt (over
     * AMQP 1.0, settle it as {@code modified} with {@code delivery-failed}). For a retry the broker delays
     * ({@link RetryPolicy#decide}), the broker holds it back for {@code delay}: over AMQP 0.9.1 by the queue's own
     * delayed retry, over AMQP 1.0 until the delivery time the consumer gives it, {@code delay} from now. For a
     * failure outside the handler ({@link RetryPolicy#failedOutsideHandler}), the consumer holds it for
     * {@code delay} before the reject.
     *
     * @param delay how long it waits before it is delivered again
     */
    record Requeue(Duration delay) implements Decision {
        public Requeue {
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
