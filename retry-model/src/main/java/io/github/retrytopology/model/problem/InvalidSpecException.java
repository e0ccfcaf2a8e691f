package io.github.retrytopology.model.problem;

import java.util.List;
import java.util.stream.Collectors;

/** Thrown when a spec breaks one or more rules; carries every problem found, in file order. */
public final class InvalidSpecException extends RetrySpecException {

    private static final long serialVersionUID = 1L;

    private final transient List<Problem> problems;

    public InvalidSpecException(String file, List<Problem> problems) {
        super(describe(file, problems));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("an invalid spec has at least one problem");
        }
        this.problems = problems.stream().sorted(Problem.IN_FILE_ORDER).toList();
    }

    /** Returns every problem, in the order they appear in the file. */
    public List<Problem> problems() {
        return problems;
    }

    private static String describe(String file, List<Problem> problems) {
        String count = problems.size() == 1 ? "1 problem" : problems.size() + " problems";
        return file + " is not a valid retry spec (" + count + "):"
                + problems.stream()
                        .sorted(Problem.IN_FILE_ORDER)
                        .map(problem -> System.lineSeparator() + "  " + problem)
                        .collect(Collectors.joining());
    }
}
