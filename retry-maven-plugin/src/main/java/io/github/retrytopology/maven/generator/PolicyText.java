package io.github.retrytopology.maven.generator;

import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.Tier;
import io.github.retrytopology.model.decision.Durations;
import java.util.List;

/** A service's retry policy in a sentence, for the generated documentation. */
final class PolicyText {

    private PolicyText() {
    }

    static String describe(Service service) {
        int attempts = service.retryPolicy().maxAttempts();
        List<Tier> tiers = service.tiers();
        StringBuilder text = new StringBuilder();
        if (attempts == 1) {
            text.append("Never retried: a failure parks the message.");
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

    static String delays(List<Tier> tiers) {
        List<String> delays = tiers.stream().map(tier -> Durations.format(tier.delay())).toList();
        if (delays.size() == 1) {
            return delays.get(0);
        }
        return String.join(", ", delays.subList(0, delays.size() - 1)) + " and " + delays.get(delays.size() - 1);
    }
}
