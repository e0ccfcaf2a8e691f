package io.github.retrytopology.model.decision;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.Protocol;
import io.github.retrytopology.model.internal.PolicyRules;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The retry decision of one service, the single copy that the generator documents and the runtime applies
 * to every delivery: whatever a delivery's {@link Result}, {@link #decide} says what follows. Its tiers, and the
 * retry through each, are worked out once, when the policy is made.
 */
public final class RetryPolicy {

    /** The first and the longest hold-back of a delivery that failed outside its handler. */
    private static final Duration FIRST_HOLD_BACK = Duration.ofMillis(100);
    private static final Duration LAST_HOLD_BACK = Duration.ofSeconds(5);

    /** More wait queues than this per service is a mistake, not a design. */
    public static final int MAX_TIERS = 50;

    private final int maxAttempts;
    private final Backoff backoff;
    private final List<String> nonRetryable;
    private final DelayBackend delayBackend;
    private final Protocol protocol;
    private final List<Duration> tiers;
    private final Optional<BrokerDelay> brokerDelay;
    /** The decision of each retry, retry 1 first; the last repeats. */
    private final List<Decision> retries;
    /** Which listed name, if any, makes a failure of each class non-retryable; a class's hierarchy is walked once. */
    private final ClassValue<Optional<String>> listedSupertypes = new ClassValue<>() {
        @Override
        protected Optional<String> computeValue(Class<?> type) {
            return listedSupertype(type);
        }
    };

    /**
     * A policy that waits in tier queues, consumed over AMQP 0.9.1.
     *
     * @param maxAttempts deliveries in all, the first included; 1 means never retry
     * @param backoff the delays before retries
     * @param nonRetryable binary names of exception classes that go straight to the parking lot
     * @throws IllegalArgumentException if the policy breaks one of {@link PolicyRules}
     */
    public RetryPolicy(int maxAttempts, Backoff backoff, List<String> nonRetryable) {
        this(maxAttempts, backoff, nonRetryable, DelayBackend.TIER_QUEUES);
    }

    /**
     * A policy consumed over AMQP 0.9.1.
     *
     * @param maxAttempts deliveries in all, the first included; 1 means never retry
     * @param backoff the delays before retries
     * @param nonRetryable binary names of exception classes that go straight to the parking lot
     * @param delayBackend what holds a message until its retry
     * @throws IllegalArgumentException if the policy breaks one of {@link PolicyRules}
     */
    public RetryPolicy(int maxAttempts, Backoff backoff, List<String> nonRetryable, DelayBackend delayBackend) {
        this(maxAttempts, backoff, nonRetryable, delayBackend, Protocol.AMQP_0_9_1);
    }

    /**
     * A policy consumed over the given protocol. Over AMQP 1.0 the broker holds each retry until the time its
     * consumer gives it, so the broker must delay the retries, and any delays go: retry {@code n} waits the
     * {@code n}th delay, the last repeating.
     *
     * @param maxAttempts deliveries in all, the first included; 1 means never retry
     * @param backoff the delays before retries
     * @param nonRetryable binary names of exception classes that go straight to the parking lot
     * @param delayBackend what holds a message until its retry; {@link DelayBackend#BROKER} over AMQP 1.0
     * @param protocol the protocol its consumer speaks
     * @throws IllegalArgumentException if the policy breaks one of {@link PolicyRules}
     */
    public RetryPolicy(int maxAttempts, Backoff backoff, List<String> nonRetryable, DelayBackend delayBackend,
            Protocol protocol) {
        this.maxAttempts = maxAttempts;
        this.backoff = requireNonNull(backoff, "backoff");
        this.nonRetryable = List.copyOf(nonRetryable);
        this.delayBackend = requireNonNull(delayBackend, "delayBackend");
        this.protocol = requireNonNull(protocol, "protocol");
        PolicyRules.attempts(maxAttempts)
                .or(() -> PolicyRules.protocol(protocol, delayBackend))
                .or(() -> PolicyRules.delays(maxAttempts, backoff, delayBackend, protocol))
                .ifPresent(refusal -> {
                    throw new IllegalArgumentException(refusal.message());
                });
        List<Duration> delays = backoff.tiers(maxAttempts - 1);
        List<Decision> retries = new ArrayList<>(delays.size());
        if (delayBackend == DelayBackend.BROKER && maxAttempts > 1) {
            this.tiers = List.of();
            if (protocol == Protocol.AMQP_1_0) {
                // Each retry is given its own time; the queue's linear delay is left for a consumer that crashed.
                this.brokerDelay = Optional.of(BrokerDelay.nearest(delays, maxAttempts - 1));
                for (Duration delay : delays) {
                    retries.add(new Decision.Requeue(delay));
                }
            } else {
                BrokerDelay broker = BrokerDelay.of(delays, maxAttempts - 1).orElseThrow();
                this.brokerDelay = Optional.of(broker);
                // Past the listed delays the broker's grows no more, as a listed last delay repeats.
                for (int retry = 1; retry <= delays.size(); retry++) {
                    retries.add(new Decision.Requeue(broker.before(retry)));
                }
            }
        } else {
            this.tiers = delayBackend == DelayBackend.BROKER ? List.of() : delays;
            this.brokerDelay = Optional.empty();
            for (Duration delay : tiers) {
                retries.add(new Decision.Retry(retries.size() + 1, delay));
            }
        }
        this.retries = List.copyOf(retries);
    }

    /** Deliveries in all, the first included; 1 means never retry. */
    public int maxAttempts() {
        return maxAttempts;
    }

    /** The delays before retries, as the spec gives them. */
    public Backoff backoff() {
        return backoff;
    }

    /** Binary names of exception classes that go straight to the parking lot. */
    public List<String> nonRetryable() {
        return nonRetryable;
    }

    /** What holds a message until its retry. */
    public DelayBackend delayBackend() {
        return delayBackend;
    }

    /** The protocol its consumer speaks: AMQP 0.9.1, or AMQP 1.0, whose retries the broker holds until their time. */
    public Protocol protocol() {
        return protocol;
    }

    /**
     * Returns the delay of each tier, in order: tier 1 first. The last tier repeats for later retries. Empty when
     * the broker delays the retries, or there are none.
     */
    public List<Duration> tiers() {
        return tiers;
    }

    /**
     * The delay of the queue's own delayed retry, when the broker delays the retries. Over AMQP 0.9.1 it is every
     * retry's delay. Over AMQP 1.0 each retry waits its listed delay, the time the consumer gives it; the broker
     * applies this one, the nearest linear delay to the listed ones, only to a failure that was given no time: a
     * delivery whose consumer crashed or lost its connection, which the broker counts as failed.
     */
    public Optional<BrokerDelay> brokerDelay() {
        return brokerDelay;
    }

    /**
     * The wait before retry {@code retry}, counted from 1, whichever backend waits it: its tier's delay, the
     * broker's linear delay, or, over AMQP 1.0, its listed delay, which the consumer gives the broker.
     *
     * @throws IllegalArgumentException if the policy has no such retry
     */
    public Duration delayBefore(int retry) {
        if (retry < 1 || retry >= maxAttempts) {
            throw new IllegalArgumentException("retry " + retry + " is not one of this policy's " + (maxAttempts - 1));
        }
        Decision decision = retries.get(Math.min(retry, retries.size()) - 1);
        return decision instanceof Decision.Requeue requeue ? requeue.delay() : ((Decision.Retry) decision).delay();
    }

    /** Whether a failure of this attempt parks the message rather than retrying it. */
    public boolean isLastAttempt(int attempt) {
        return attempt >= maxAttempts;
    }

    /**
     * Decides what follows a delivery:
     * <ul>
     *   <li>it returned: acknowledge it;
     *   <li>no handler takes it, its body cannot be decoded, or its handler asked: park it;
     *   <li>it threw a failure listed in {@code nonRetryable} (its class, a superclass, an interface it implements,
     *       or the same of any cause): park it;
     *   <li>it threw anything else, or asked for a retry: park it after the last attempt, retry it otherwise:
     *       through the tier of this retry, or by handing it back to the broker, which delays it (over AMQP 1.0,
     *       until the time the consumer gives it, this retry's listed delay later).
     * </ul>
     *
     * @param attempt the delivery, counted from 1
     * @throws IllegalArgumentException if {@code attempt} is below 1
     */
    public Decision decide(int attempt, Result result) {
        requireNonNull(result, "result");
        if (attempt < 1) {
            throw new IllegalArgumentException("attempts are counted from 1, got " + attempt);
        }
        if (result instanceof Result.Returned) {
            return Decision.ACKNOWLEDGE;
        }
        if (result instanceof Result.NoHandler noHandler) {
            return new Decision.Park(ParkReason.NO_HANDLER, "no handler takes routing key " + noHandler.routingKey());
        }
        if (result instanceof Result.Undecodable undecodable) {
            return new Decision.Park(ParkReason.UNDECODABLE, "cannot decode the body into "
                    + undecodable.payloadType() + ": " + undecodable.failure().getMessage());
        }
        if (result instanceof Result.AskedToPark asked) {
            return new Decision.Park(ParkReason.REJECTED, "the handler parked it: " + asked.failure().getMessage());
        }
        if (result instanceof Result.Threw threw) {
            Optional<NonRetryable> listed = nonRetryable(threw.failure());
            if (listed.isPresent()) {
                return new Decision.Park(ParkReason.NON_RETRYABLE, listed.get().detail());
            }
        }
        if (isLastAttempt(attempt)) {
            return new Decision.Park(ParkReason.ATTEMPTS_EXHAUSTED, "attempt " + attempt + " of " + maxAttempts + " failed");
        }
        return retries.get(Math.min(attempt, retries.size()) - 1);
    }

    /**
     * Decides what follows a delivery that failed outside its handler, in the consumer's own code: it goes back
     * to its queue as a failed delivery, which every version of RabbitMQ counts toward a quorum queue's delivery
     * limit, once the consumer has held it for the decision's delay. The delay doubles while such failures follow
     * each other, from 100 ms to 5 s, so that a consumer that fails every delivery neither spins nor brings a
     * message back for ever: the broker's delivery limit parks it in the end.
     *
     * @param inARow how many deliveries in a row failed so, this one included, from 1
     * @throws IllegalArgumentException if {@code inARow} is below 1
     */
    public Decision.Requeue failedOutsideHandler(int inARow) {
        if (inARow < 1) {
            throw new IllegalArgumentException("failures in a row are counted from 1, got " + inARow);
        }
        int doublings = Math.min(inARow - 1, 6);
        Duration pause = FIRST_HOLD_BACK.multipliedBy(1L << doublings);
        return new Decision.Requeue(pause.compareTo(LAST_HOLD_BACK) > 0 ? LAST_HOLD_BACK : pause);
    }

    /**
     * Decides what follows a failed delivery whose retry or park no frame can carry, because its publisher's own
     * headers leave no room for the failure's: park it, with as many of its publisher's headers as fit.
     *
     * @param why what made it too large, for the parked message's headers and the logs
     * @param droppedHeader the header that names the publisher's headers left out
     */
    public Decision.Park unpublishable(String why, String droppedHeader) {
        requireNonNull(why, "why");
        return new Decision.Park(ParkReason.UNPUBLISHABLE, "no republish of it fits the connection's frame (" + why
                + "): its publisher's largest headers were dropped, as " + droppedHeader + " says");
    }

    /** Returns the listed name that makes this failure non-retryable, if any. */
    public Optional<String> nonRetryableType(Throwable failure) {
        return nonRetryable(failure).map(NonRetryable::listed);
    }

    /** The first of the failure and its causes whose class is listed, or a subclass of a listed one. */
    private Optional<NonRetryable> nonRetryable(Throwable failure) {
        if (nonRetryable.isEmpty()) {
            return Optional.empty();
        }
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable cause = failure; cause != null && seen.add(cause); cause = cause.getCause()) {
            Optional<String> listed = listedSupertypes.get(cause.getClass());
            if (listed.isPresent()) {
                return Optional.of(new NonRetryable(cause, listed.get()));
            }
        }
        return Optional.empty();
    }

    /** A match of {@code nonRetryable}: the failure or cause that matched, and the listed name it matched. */
    private record NonRetryable(Throwable cause, String listed) {
        String detail() {
            return cause.getClass().getName() + " is non-retryable (listed: " + listed + ")";
        }
    }

    private Optional<String> listedSupertype(Class<?> type) {
        Deque<Class<?>> pending = new ArrayDeque<>(List.of(type));
        while (!pending.isEmpty()) {
            Class<?> next = pending.removeFirst();
            if (nonRetryable.contains(next.getName())) {
                return Optional.of(next.getName());
            }
            if (next.getSuperclass() != null) {
                pending.addLast(next.getSuperclass());
            }
            pending.addAll(List.of(next.getInterfaces()));
        }
        return Optional.empty();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RetryPolicy that && maxAttempts == that.maxAttempts && backoff.equals(that.backoff)
                && nonRetryable.equals(that.nonRetryable) && delayBackend == that.delayBackend
                && protocol == that.protocol;
    }

    @Override
    public int hashCode() {
        return Objects.hash(maxAttempts, backoff, nonRetryable, delayBackend, protocol);
    }

    @Override
    public String toString() {
        return "RetryPolicy[maxAttempts=" + maxAttempts + ", backoff=" + backoff + ", nonRetryable=" + nonRetryable
                + ", delayBackend=" + delayBackend.id() + ", protocol=" + protocol.id() + "]";
    }
}
