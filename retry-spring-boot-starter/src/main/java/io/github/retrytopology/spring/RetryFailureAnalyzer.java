package io.github.retrytopology.spring;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Shows a {@link RetryConfigurationException} as Boot shows a failed start-up: what is wrong, and what to do. */
class RetryFailureAnalyzer extends AbstractFailureAnalyzer<RetryConfigurationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, RetryConfigurationException cause) {
        StringBuilder description = new StringBuilder("The services of retry.yml cannot be consumed:\n");
        for (String problem : cause.problems()) {
            description.append("\n    - ").append(problem);
        }
        return new FailureAnalysis(description.toString(), cause.action(), cause);
    }
}
