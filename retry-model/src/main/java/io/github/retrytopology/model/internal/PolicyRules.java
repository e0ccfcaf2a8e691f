package io.github.retrytopology.model.internal;

import io.github.retrytopology.model.Protocol;
import io.github.retrytopology.model.decision.Backoff;
import io.github.retrytopology.model.decision.BrokerDelay;
import io.github.retrytopology.model.decision.DelayBackend;
import io.github.retrytopology.model.decision.Durations;
import io.github.retrytopology.model.decision.RetryPolicy;
import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What makes a retry policy impossible, checked in one place: {@link RetryPolicy} refuses such a policy with the
 * refusal's message, and the spec's validator reports it at the place in the spec that causes it. Each message is a
 * clause without a subject, which the validator puts after the service's name.
 */
public final class PolicyRules {

    /** Which rule a policy breaks. */
    public enum Rule {
        /** maxAttempts counts every delivery: at least 1, and at most what an int holds. */
        ATTEMPTS,
        /** A policy that retries needs a delay before each retry. */
        NO_DELAY,
        /** More than {@link RetryPolicy#MAX_TIERS} delays. */
        TOO_MANY_TIERS,
        /** A delay above RabbitMQ's largest TTL. */
        DELAY_TOO_LONG,
        /** Delays that the broker's delayed retry cannot wait. */
        BROKER_DELAY,
        /** Tier queues for a service consumed over AMQP 1.0, whose retries the broker holds until their time. */
        AMQP10_DELAY
    }

    /**
     * A broken rule, and why, in words.
     *
     * @param rule the rule
     * @param message what breaks it, and what would not
     */
    public record Refusal(Rule rule, String message) {
    }

    private PolicyRules() {
    }

    /** Refuses a number of attempts that is not a number of deliveries. */
    public static Optional<Refusal> attempts(long maxAttempts) {
        return attempts(BigInteger.valueOf(maxAttempts));
    }

    /** Refuses a number of attempts that is not a number of deliveries, however large it is written. */
    public static Optional<Refusal> attempts(BigInteger maxAttempts) {
        if (maxAttempts.signum() < 1) {
            return refuse(Rule.ATTEMPTS, "maxAttempts is " + maxAttempts + "; it counts every delivery, the first "
                    + "included, so it is at least 1 (1 means never retry)");
        }
        if (maxAttempts.compareTo(BigInteger.valueOf(Integer.MAX_VALUE)) > 0) {
            return refuse(Rule.ATTEMPTS, "maxAttempts is " + maxAttempts + "; it can be at most " + Integer.MAX_VALUE);
        }
        return Optional.empty();
    }

    /**
     * Refuses tier queues for a service consumed over AMQP 1.0: its consumer settles a failure with a delivery time,
     * and the broker holds the message until then, so nothing would ever go through a tier queue.
     */
    public static Optional<Refusal> protocol(Protocol protocol, DelayBackend backend) {
        if (protocol == Protocol.AMQP_1_0 && backend != DelayBackend.BROKER) {
            return refuse(Rule.AMQP10_DELAY, "it is consumed over AMQP 1.0, where the broker holds each retry until "
                    + "its delivery time, so tier queues are not used; remove delayBy, or set it to "
                    + DelayBackend.BROKER.id());
        }
        return Optional.empty();
    }

    /**
     * Refuses delays that cannot make a policy of {@code maxAttempts} attempts: none for a policy that retries, more
     * than {@link RetryPolicy#MAX_TIERS}, one above RabbitMQ's largest TTL, or, on the broker over AMQP 0.9.1, delays
     * its delayed retry cannot wait (over AMQP 1.0 each retry has a time of its own, so any delays go).
     */
    public static Optional<Refusal> delays(int maxAttempts, Backoff backoff, DelayBackend backend, Protocol protocol) {
        List<Duration> delays = backoff.tiers(maxAttempts - 1);
        if (maxAttempts > 1 && delays.isEmpty()) {
            return refuse(Rule.NO_DELAY, "it retries (maxAttempts " + maxAttempts + ") but has no delay to wait "
                    + "before a retry");
        }
        if (delays.size() > RetryPolicy.MAX_TIERS) {
            return refuse(Rule.TOO_MANY_TIERS, "it would need more than " + RetryPolicy.MAX_TIERS + " wait queues, one "
                    + "per delay; set a 'max' on the backoff, or fewer delays");
        }
        for (int retry = 1; retry <= delays.size(); retry++) {
            if (delays.get(retry - 1).compareTo(Durations.MAX_TTL) > 0) {
                return refuse(Rule.DELAY_TOO_LONG, "the backoff grows above RabbitMQ's largest TTL, "
                        + Durations.format(Durations.MAX_TTL) + ", by retry " + retry
                        + "; set a 'max' of at most that, or fewer maxAttempts");
            }
        }
        if (backend == DelayBackend.BROKER && protocol == Protocol.AMQP_0_9_1 && maxAttempts > 1
                && BrokerDelay.of(delays, maxAttempts - 1).isEmpty()) {
            return refuse(Rule.BROKER_DELAY, "the broker's delayed retry waits d, 2d, 3d, ... up to a longest delay, "
                    + "and cannot wait " + BrokerDelay.describe(delays) + "; the nearest it can is "
                    + BrokerDelay.nearest(delays, maxAttempts - 1).describe(maxAttempts - 1) + ", or delay by "
                    + DelayBackend.TIER_QUEUES.id() + ", or consume over AMQP 1.0 (protocol "
                    + Protocol.AMQP_1_0.id() + "), which takes any delays");
        }
        return Optional.empty();
    }

    private static Optional<Refusal> refuse(Rule rule, String message) {
        return Optional.of(new Refusal(rule, message));
    }
}
