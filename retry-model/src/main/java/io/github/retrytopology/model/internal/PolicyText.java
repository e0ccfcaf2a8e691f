package io.github.retrytopology.model.internal;

import io.github.retrytopology.model.Protocol;
import io.github.retrytopology.model.QueueType;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.Tier;
import io.github.retrytopology.model.decision.BrokerDelay;
import io.github.retrytopology.model.decision.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A service's retry policy in words, as the generated documentation, the topology's picture and the console show it.
 */
public final class PolicyText {

    private PolicyText() {
    }

    /**
     * The policy in a sentence or two, such as {@code Up to 4 attempts, the retries waiting 1s, 10s and 1m; then the
     * parking lot.} A service consumed over AMQP 1.0 says so, and that the broker holds each retry until its
     * delivery time.
     */
    public static String describe(Service service) {
        int attempts = service.retryPolicy().maxAttempts();
        List<Tier> tiers = service.tiers();
        boolean amqp10 = service.protocol() == Protocol.AMQP_1_0;
        StringBuilder text = new StringBuilder();
        if (attempts == 1) {
            text.append(amqp10 ? "Never retried, consumed over AMQP 1.0" : "Never retried")
                    .append(": a failure parks the message.");
        } else if (service.retryPolicy().brokerDelay().isPresent()) {
            text.append("Up to ").append(attempts).append(" attempts, ")
                    .append(amqp10 ? "consumed over AMQP 1.0, " : "").append("the broker holding each retry back ")
                    .append(brokerDelays(service)).append("; then the parking lot.");
        } else {
            text.append("Up to ").append(attempts).append(" attempts, the retries waiting ").append(delays(tiers));
            if (tiers.size() < attempts - 1) {
                text.append(tiers.size() == 1 ? ", every time" : ", that last delay repeating");
            }
            text.append("; then the parking lot.");
        }
        List<String> nonRetryable = service.retryPolicy().nonRetryable();
        if (!nonRetryable.isEmpty()) {
            text.append(" Parked at once: ").append(String.join(", ", nonRetryable)).append('.');
        }
        return text.toString();
    }

    /**
     * The delays of a service's retries, as the table of the picture lists them; {@code none} if it never retries.
     * Over AMQP 1.0, the listed delays: {@code 10s, 1m and 10m (by the broker, over AMQP 1.0)}.
     */
    public static String delays(Service service) {
        if (service.protocol() == Protocol.AMQP_1_0 && service.retryPolicy().brokerDelay().isPresent()) {
            return listedDelays(service) + " (by the broker, over AMQP 1.0)";
        }
        if (service.retryPolicy().brokerDelay().isPresent()) {
            return brokerDelays(service) + " (by the broker)";
        }
        return service.tiers().isEmpty() ? "none" : delays(service.tiers());
    }

    /**
     * How long the broker holds a retry back, to follow "holds it back": {@code 1s × the retry's number, up to 3s},
     * or {@code 5s} if that never grows. Over AMQP 1.0, until the time its consumer gives it, and the queue's own
     * delay for a retry after a crash, which is given none: {@code until its delivery time: 10s, 1m and 10m (after a
     * crash, 10s × the retry's number, up to 10m)}.
     */
    public static String brokerDelays(Service service) {
        BrokerDelay delay = service.retryPolicy().brokerDelay().orElseThrow();
        if (service.protocol() == Protocol.AMQP_1_0) {
            return "until its delivery time: " + listedDelays(service) + " (after a crash, " + linear(delay) + ")";
        }
        return linear(delay);
    }

    private static String linear(BrokerDelay delay) {
        if (delay.min().equals(delay.max())) {
            return Durations.format(delay.min());
        }
        return Durations.format(delay.min()) + " × the retry's number, up to " + Durations.format(delay.max());
    }

    /** The delays a service's policy lists for its retries, as its consumer gives them over AMQP 1.0. */
    private static String listedDelays(Service service) {
        int retries = service.retryPolicy().maxAttempts() - 1;
        List<Duration> delays = service.retryPolicy().backoff().tiers(retries);
        String listed = and(delays.stream().map(Durations::format).toList());
        if (delays.size() < retries) {
            return listed + (delays.size() == 1 ? ", every time" : ", that last delay repeating");
        }
        return listed;
    }

    /** Delays in a list, such as {@code 1s, 10s and 1m}. */
    public static String delays(List<Tier> tiers) {
        return and(tiers.stream().map(tier -> Durations.format(tier.delay())).toList());
    }

    private static String and(List<String> items) {
        if (items.size() == 1) {
            return items.get(0);
        }
        return String.join(", ", items.subList(0, items.size() - 1)) + " and " + items.get(items.size() - 1);
    }

    /** What sends a message to a tier, as a picture's arrow says it: {@code attempt 1 failed}, a range for the last. */
    public static String tierCause(Service service, Tier tier) {
        int attempts = service.retryPolicy().maxAttempts();
        boolean repeats = tier.number() == service.tiers().size() && tier.number() < attempts - 1;
        return repeats ? "attempts " + tier.number() + " to " + (attempts - 1) + " failed"
                : "attempt " + tier.number() + " failed";
    }

    /** What parks a message, one line each: {@code attempt 4 failed}, {@code or non-retryable}, and so on. */
    public static List<String> parkCauses(Service service) {
        int attempts = service.retryPolicy().maxAttempts();
        List<String> causes = new ArrayList<>(List.of("attempt " + attempts + " failed"));
        if (!service.retryPolicy().nonRetryable().isEmpty()) {
            causes.add("or non-retryable");
        }
        if (service.retryPolicy().brokerDelay().isPresent()) {
            // The broker counts a crash as a failed attempt, as it counts a retry.
            causes.add("or crashed its consumer");
        } else if (service.queueType() == QueueType.QUORUM) {
            causes.add("or crashed its consumer " + attempts + (attempts == 1 ? " time" : " times"));
        }
        return List.copyOf(causes);
    }

    /** What the broker holds back, when it delays the service's retries: {@code attempts 1 to 3 failed or crashed}. */
    public static Optional<String> brokerRetryCause(Service service) {
        return service.retryPolicy().brokerDelay()
                .map(delay -> "attempts 1 to " + (service.retryPolicy().maxAttempts() - 1) + " failed or crashed");
    }
}
