package io.github.retrytopology.model.read;

import io.github.retrytopology.model.problem.InvalidSpecException;
import io.github.retrytopology.model.problem.Position;
import io.github.retrytopology.model.problem.Problem;
import io.github.retrytopology.model.problem.ProblemCode;
import java.util.ArrayList;
import java.util.List;

/** Collects every problem of one spec, so that the user sees them all at once rather than one per run. */
public final class Problems {

    private final List<Problem> problems = new ArrayList<>();

    public void report(Position position, String path, ProblemCode code, String message) {
        problems.add(new Problem(position, path, code, message));
    }

    public void report(Located<?> value, ProblemCode code, String message) {
        report(value.position(), value.path(), code, message);
    }

    public boolean isEmpty() {
        return problems.isEmpty();
    }

    /** Returns the problems so far, in file order. */
    public List<Problem> list() {
        return problems.stream().sorted(Problem.IN_FILE_ORDER).toList();
    }

    /** Throws an {@link InvalidSpecException} listing every problem, if there is any. */
    public void throwIfAny(String file) {
        if (!problems.isEmpty()) {
            throw new InvalidSpecException(file, problems);
        }
    }
}
