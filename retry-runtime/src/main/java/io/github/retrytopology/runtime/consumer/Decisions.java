package io.github.retrytopology.runtime.consumer;

import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.Tier;
import io.github.retrytopology.model.decision.Decision;
import java.util.List;

/**
 * The model's decisions for one service, asked once per attempt number: apart from a failure its policy lists
 * as non-retryable, a decision depends on the attempt alone, and working one out (the tiers' delays) is not
 * worth doing for every failed delivery. Non-retryable failures are decided by the model each time.
 */
final class Decisions {

    private final Service service;
    private final List<Tier> tiers;
    private final Decision[] byAttempt;

    Decisions(Service service) {
        this.service = service;
        this.tiers = service.tiers();
        this.byAttempt = new Decision[service.retryPolicy().maxAttempts() + 1];
    }

    /** What follows the failure of attempt {@code attempt}, as the service's policy decides. */
    Decision after(int attempt, Throwable failure) {
        if (!service.retryPolicy().nonRetryable().isEmpty()
                && service.retryPolicy().nonRetryableType(failure).isPresent()) {
            return service.decide(attempt, failure);
        }
        return byAttempt(attempt);
    }

    /** What follows the failure of attempt {@code attempt}, whatever the failure. */
    Decision byAttempt(int attempt) {
        if (attempt >= byAttempt.length) {
            return service.retryPolicy().decideByAttempt(attempt);
        }
        Decision decision = byAttempt[attempt];
        if (decision == null) {
            decision = service.retryPolicy().decideByAttempt(attempt);
            byAttempt[attempt] = decision;
        }
        return decision;
    }

    /** The tier with this number, from 1. */
    Tier tier(int number) {
        return tiers.get(number - 1);
    }
}
