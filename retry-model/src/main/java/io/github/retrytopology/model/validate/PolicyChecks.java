package io.github.retrytopology.model.validate;

import io.github.retrytopology.model.Protocol;
import io.github.retrytopology.model.QueueType;
import io.github.retrytopology.model.decision.Backoff;
import io.github.retrytopology.model.decision.DelayBackend;
import io.github.retrytopology.model.decision.Durations;
import io.github.retrytopology.model.decision.RetryPolicy;
import io.github.retrytopology.model.internal.PolicyRules;
import io.github.retrytopology.model.problem.ProblemCode;
import io.github.retrytopology.model.read.Located;
import io.github.retrytopology.model.read.Problems;
import io.github.retrytopology.model.read.SpecDraft.BackoffDraft;
import io.github.retrytopology.model.read.SpecDraft.PolicyDraft;
import io.github.retrytopology.model.read.Suggestions;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A service's retry settings, its own and those it inherits from {@code defaults}: attempts, delays and backoff,
 * the delay backend, the protocol and the queue type, and the retry policy they make, refused where it breaks a
 * {@link PolicyRules} rule.
 */
final class PolicyChecks {

    private final Problems problems;

    PolicyChecks(Problems problems) {
        this.problems = problems;
    }

    private static final Pattern WHOLE_NUMBER = Pattern.compile("[+-]?\\d+");

    private static final Pattern DECIMAL = Pattern.compile("\\d+(\\.\\d+)?");

    /** The retry settings of one mapping, each absent (null) or checked. */
    record Settings(
            Setting<Integer> maxAttempts,
            Setting<Backoff> backoff,
            Setting<DelayBackend> delayBy,
            Setting<Protocol> protocol,
            Setting<QueueType> queueType,
            Setting<List<String>> nonRetryable) {
    }

    /**
     * One setting that a mapping sets: its value if valid, null if a problem has been reported about it.
     * Either way it overrides the default.
     */
    record Setting<T>(T value, Located<?> source) {
        boolean valid() {
            return value != null;
        }
    }

    Settings settings(PolicyDraft draft) {
        Setting<Backoff> backoff = null;
        if (draft.delays() != null && draft.backoff() != null) {
            problems.report(draft.backoff(), ProblemCode.DELAYS_AND_BACKOFF,
                    "'backoff' and 'delays' are both set here; keep one of them");
            backoff = new Setting<>(null, draft.backoff());
        } else if (draft.delays() != null) {
            backoff = new Setting<>(delays(draft.delays()), draft.delays());
        } else if (draft.backoff() != null) {
            backoff = new Setting<>(exponential(draft.backoff()), draft.backoff());
        }
        return new Settings(
                draft.maxAttempts() == null ? null : new Setting<>(maxAttempts(draft.maxAttempts()), draft.maxAttempts()),
                backoff,
                draft.delayBy() == null ? null : new Setting<>(
                        choice(draft.delayBy(), DelayBackend.values(), DelayBackend::id, null), draft.delayBy()),
                draft.protocol() == null ? null : new Setting<>(
                        choice(draft.protocol(), Protocol.values(), Protocol::id, null), draft.protocol()),
                draft.queueType() == null ? null : new Setting<>(
                        choice(draft.queueType(), QueueType.values(), QueueType::id, null), draft.queueType()),
                draft.nonRetryable() == null ? null : new Setting<>(nonRetryable(draft.nonRetryable()), draft.nonRetryable()));
    }

    Integer maxAttempts(Located<String> maxAttempts) {
        String text = maxAttempts.value();
        if (!WHOLE_NUMBER.matcher(text).matches()) {
            problems.report(maxAttempts, ProblemCode.WRONG_TYPE,
                    "'" + text + "' is not a whole number; expected a number of attempts, such as 4");
            return null;
        }
        BigInteger attempts = new BigInteger(text);
        Optional<PolicyRules.Refusal> refusal = PolicyRules.attempts(attempts);
        if (refusal.isPresent()) {
            problems.report(maxAttempts, ProblemCode.BAD_MAX_ATTEMPTS, refusal.get().message());
            return null;
        }
        return attempts.intValueExact();
    }

    Backoff delays(Located<List<Located<String>>> delays) {
        if (delays.value().isEmpty()) {
            problems.report(delays, ProblemCode.MISSING_DELAYS, "'delays' is empty; list at least one, such as [10s]");
            return null;
        }
        List<Duration> parsed = new ArrayList<>();
        for (Located<String> delay : delays.value()) {
            parsed.add(delay(delay));
        }
        return parsed.contains(null) ? null : new Backoff.Delays(parsed);
    }

    Backoff exponential(Located<BackoffDraft> backoff) {
        BackoffDraft draft = backoff.value();
        Duration initial = draft.initial() == null ? null : delay(draft.initial());
        Duration max = draft.max() == null ? null : delay(draft.max());
        BigDecimal multiplier = null;
        if (draft.multiplier() != null) {
            String text = draft.multiplier().value();
            if (!DECIMAL.matcher(text).matches()) {
                problems.report(draft.multiplier(), ProblemCode.BAD_BACKOFF, "multiplier '" + text
                        + "' is not a number; expected how much each delay grows, such as 2 or 1.5");
            } else if (new BigDecimal(text).compareTo(BigDecimal.ONE) < 0) {
                problems.report(draft.multiplier(), ProblemCode.BAD_BACKOFF, "multiplier " + text
                        + " would make each delay shorter than the one before; expected 1 or more");
            } else {
                multiplier = new BigDecimal(text);
            }
        }
        if (initial != null && max != null && max.compareTo(initial) < 0) {
            problems.report(draft.max(), ProblemCode.BAD_BACKOFF, "max " + draft.max().value()
                    + " is shorter than initial " + draft.initial().value() + "; expected at least the initial delay");
            return null;
        }
        if (initial == null || multiplier == null || (draft.max() != null && max == null)) {
            return null;
        }
        return new Backoff.Exponential(initial, multiplier, Optional.ofNullable(max));
    }

    Duration delay(Located<String> text) {
        try {
            Duration delay = Durations.parse(text.value());
            if (delay.compareTo(Durations.MAX_TTL) <= 0) {
                return delay;
            }
        } catch (IllegalArgumentException e) {
            problems.report(text, ProblemCode.BAD_DURATION, e.getMessage());
            return null;
        } catch (ArithmeticException tooLong) {
            // Reported below, with every other delay above the limit.
        }
        problems.report(text, ProblemCode.DELAY_TOO_LONG, "'" + text.value() + "' is longer than RabbitMQ's largest "
                + "TTL, 2^32-1 ms (" + Durations.format(Durations.MAX_TTL) + ")");
        return null;
    }

    List<String> nonRetryable(Located<List<Located<String>>> classes) {
        List<String> names = new ArrayList<>();
        for (Located<String> name : classes.value()) {
            if (JavaNames.checkClassName(problems, name, "an exception class")) {
                names.add(name.value());
            }
        }
        return names.size() == classes.value().size() ? List.copyOf(names) : null;
    }

    Optional<RetryPolicy> policy(Located<String> service, Settings own, Settings defaults, QueueType queueType) {
        Setting<Integer> maxAttempts = own.maxAttempts() != null ? own.maxAttempts() : defaults.maxAttempts();
        Setting<Backoff> backoff = own.backoff() != null ? own.backoff() : defaults.backoff();
        Setting<List<String>> nonRetryable = own.nonRetryable() != null ? own.nonRetryable() : defaults.nonRetryable();
        Setting<DelayBackend> delayBy = own.delayBy() != null ? own.delayBy() : defaults.delayBy();
        Setting<Protocol> protocolSetting = own.protocol() != null ? own.protocol() : defaults.protocol();
        Protocol protocol = protocolSetting == null ? Protocol.AMQP_0_9_1 : protocolSetting.value();
        if (protocol == null) {
            return Optional.empty();
        }
        // Over AMQP 1.0 the broker holds every retry, so the protocol implies delayBy broker.
        DelayBackend backend = delayBy != null ? delayBy.value()
                : protocol == Protocol.AMQP_1_0 ? DelayBackend.BROKER : DelayBackend.TIER_QUEUES;
        if (backend == null) {
            return Optional.empty();
        }
        if (protocol == Protocol.AMQP_1_0) {
            boolean refused = false;
            Optional<PolicyRules.Refusal> tierQueues = PolicyRules.protocol(protocol, backend);
            if (tierQueues.isPresent()) {
                problems.report(delayBy.source(), ProblemCode.AMQP10_DELAY, "service '" + service.value()
                        + "' has delayBy '" + backend.id() + "': " + tierQueues.get().message());
                refused = true;
            }
            if (queueType == QueueType.CLASSIC) {
                problems.report(protocolSetting.source(), ProblemCode.AMQP10_DELAY, "service '" + service.value()
                        + "' has protocol '" + protocol.id() + "' and queueType 'classic': delivery times and the "
                        + "delivery limit, which its consumer over AMQP 1.0 relies on, are features of quorum queues, "
                        + "RabbitMQ 4.3.1 and later; make it quorum, or consume over " + Protocol.AMQP_0_9_1.id());
                refused = true;
            }
            if (refused) {
                return Optional.empty();
            }
        } else if (backend == DelayBackend.BROKER && queueType == QueueType.CLASSIC) {
            problems.report(delayBy.source(), ProblemCode.BROKER_DELAY, "service '" + service.value() + "' has the "
                    + "broker delay its retries, which only quorum queues do, but its queueType is classic; make it "
                    + "quorum, or delay by tier-queues");
            return Optional.empty();
        }
        if (maxAttempts == null) {
            problems.report(service, ProblemCode.MISSING_KEY, "service '" + service.value()
                    + "' has no maxAttempts, and defaults sets none; expected a number of attempts, such as 4");
            return Optional.empty();
        }
        if (!maxAttempts.valid() || (backoff != null && !backoff.valid())
                || (nonRetryable != null && !nonRetryable.valid())) {
            return Optional.empty();
        }
        int attempts = maxAttempts.value();
        List<String> classes = nonRetryable == null ? List.of() : nonRetryable.value();
        Backoff delays = backoff == null ? Backoff.none() : backoff.value();
        Optional<PolicyRules.Refusal> refusal = PolicyRules.delays(attempts, delays, backend, protocol);
        if (refusal.isPresent()) {
            String message = "service '" + service.value() + "': " + refusal.get().message();
            switch (refusal.get().rule()) {
                case NO_DELAY -> problems.report(service, ProblemCode.MISSING_DELAYS,
                        message + "; neither it nor defaults sets 'delays' or 'backoff'");
                case TOO_MANY_TIERS -> problems.report(backoff.source(), ProblemCode.TOO_MANY_TIERS, message);
                case DELAY_TOO_LONG -> problems.report(backoff.source(), ProblemCode.DELAY_TOO_LONG, message);
                case BROKER_DELAY -> problems.report(backoff.source(), ProblemCode.BROKER_DELAY, message);
                case ATTEMPTS -> throw new IllegalStateException("attempts were checked when read: " + message);
                case AMQP10_DELAY -> throw new IllegalStateException("the protocol was checked above: " + message);
            }
            return Optional.empty();
        }
        return Optional.of(new RetryPolicy(attempts, delays, classes, backend, protocol));
    }

    static <T> T inherit(Setting<T> own, Setting<T> defaults, T fallback) {
        Setting<T> setting = own != null ? own : defaults;
        return setting == null ? fallback : setting.value();
    }

    <E> E choice(Located<String> value, E[] choices, Function<E, String> id, E fallback) {
        if (value == null) {
            return fallback;
        }
        for (E choice : choices) {
            if (id.apply(choice).equals(value.value())) {
                return choice;
            }
        }
        List<String> ids = Arrays.stream(choices).map(id).toList();
        String hint = Suggestions.didYouMean(value.value(), ids);
        problems.report(value, ProblemCode.UNKNOWN_VALUE, "'" + value.value() + "' is not one of "
                + String.join(", ", ids) + (hint.isEmpty() ? "" : hint));
        return null;
    }
}
