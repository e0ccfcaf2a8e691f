package io.github.retrytopology.spring;

import java.util.List;

/**
 * The application's retry set-up cannot be consumed as it is: a service without a handler bean, or with two, a
 * {@code retry.*} property that names no service or holds a value out of range, a queue the broker does not have,
 * or, with {@code retry.fail-fast}, a broker that does not answer. Every problem found is listed at once;
 * {@link RetryFailureAnalyzer} shows them, and what to do, when start-up fails.
 */
public class RetryConfigurationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;
    private final String action;

    RetryConfigurationException(List<String> problems, String action) {
        super(String.join("; ", problems));
        this.problems = List.copyOf(problems);
        this.action = action;
    }

    /** Each problem, in a sentence. */
    public List<String> problems() {
        return problems;
    }

    /** What to do about them. */
    public String action() {
        return action;
    }
}
