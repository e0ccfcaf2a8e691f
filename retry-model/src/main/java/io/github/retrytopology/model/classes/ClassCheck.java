package io.github.retrytopology.model.classes;

import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.classes.ClassReference.Use;
import io.github.retrytopology.model.problem.Problem;
import io.github.retrytopology.model.problem.ProblemCode;
import io.github.retrytopology.model.read.Suggestions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Checks the classes a spec names against the classes that exist: each must be there, and a {@code nonRetryable}
 * one must be an exception. A misspelled payload class fails compilation in a generated file rather than in the
 * spec, and a misspelled non-retryable one is never noticed (its exception is retried); this names the spec's
 * line and column, with the likeliest class meant.
 */
public final class ClassCheck {

    private ClassCheck() {
    }

    /** Every problem of the classes a spec names, in file order; none if every class is there and fit for its use. */
    public static List<Problem> check(List<ClassReference> named, ClassFinder finder) {
        List<Problem> problems = new ArrayList<>();
        Supplier<Collection<String>> candidates = memoized(finder::classNames);
        for (ClassReference one : named) {
            problem(one.name(), one.use(), finder, candidates).ifPresent(problem -> problems.add(new Problem(
                    one.position(), one.path(), problem.code(), problem.message())));
        }
        return problems;
    }

    /**
     * What is wrong with the {@code nonRetryable} classes of a service as the calling thread's context class
     * loader (else this library's) sees them, for a warning when a consumer starts.
     */
    public static List<String> nonRetryableProblems(Service service) {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return nonRetryableProblems(service, context != null ? context : ClassCheck.class.getClassLoader());
    }

    /**
     * What is wrong with the {@code nonRetryable} classes of a service as a class loader sees them, for a warning
     * at start-up: an exception of a class that cannot be loaded is never thrown, so the one meant is retried.
     */
    public static List<String> nonRetryableProblems(Service service, ClassLoader loader) {
        ClassFinder finder = ClassFinder.of(loader);
        Supplier<Collection<String>> none = List::of;
        return service.retryPolicy().nonRetryable().stream()
                .flatMap(name -> problem(name, Use.NON_RETRYABLE, finder, none).stream())
                .map(problem -> "service '" + service.name() + "': " + problem.message()
                        + (problem.code() == ProblemCode.UNKNOWN_CLASS
                                ? "; no exception of it can be thrown here, so the failure meant is retried" : ""))
                .toList();
    }

    /** A problem without its place: what is wrong with one name, for one use. */
    private record Found(ProblemCode code, String message) {
    }

    private static Optional<Found> problem(String name, Use use, ClassFinder finder,
            Supplier<Collection<String>> candidates) {
        Class<?> type;
        try {
            type = finder.load(name);
        } catch (ClassNotFoundException missing) {
            return Optional.of(new Found(ProblemCode.UNKNOWN_CLASS, "there is no " + use.description() + " '" + name
                    + "' on the class path" + didYouMean(name, candidates.get())));
        } catch (LinkageError unloadable) {
            return Optional.of(new Found(ProblemCode.UNKNOWN_CLASS, use.description() + " '" + name
                    + "' is on the class path but cannot be loaded: " + unloadable));
        }
        if (use == Use.NON_RETRYABLE && !Throwable.class.isAssignableFrom(type)) {
            return Optional.of(new Found(ProblemCode.NOT_THROWABLE, "'" + name + "' is " + kind(type)
                    + ", not an exception: a non-retryable class extends java.lang.Throwable"));
        }
        return Optional.empty();
    }

    private static String kind(Class<?> type) {
        return type.isInterface() ? "an interface" : type.isEnum() ? "an enum" : type.isRecord() ? "a record" : "a class";
    }

    /**
     * The class most likely meant, as {@code "; did you mean 'x'?"}, or nothing: the same simple name in other
     * packages (the nearest packages first), else the nearest binary name, else the nearest simple name.
     */
    static String didYouMean(String typed, Collection<String> candidates) {
        if (candidates.isEmpty()) {
            return "";
        }
        String simpleName = simpleName(typed);
        List<String> sameName = candidates.stream()
                .filter(candidate -> simpleName(candidate).equals(simpleName) && !candidate.equals(typed))
                .toList();
        if (!sameName.isEmpty()) {
            return nearest(sameName, typed);
        }
        Optional<String> closest = Suggestions.closest(typed, candidates);
        if (closest.isPresent()) {
            return "; did you mean '" + closest.get() + "'?";
        }
        Map<String, List<String>> bySimpleName = candidates.stream().collect(Collectors.groupingBy(ClassCheck::simpleName));
        return Suggestions.closest(simpleName, bySimpleName.keySet())
                .map(name -> nearest(bySimpleName.get(name), typed))
                .orElse("");
    }

    /** Up to three names, those that share the longest start with the name typed first. */
    private static String nearest(List<String> names, String typed) {
        return "; did you mean " + names.stream()
                .sorted(Comparator.comparingInt((String name) -> -commonPrefix(name, typed))
                        .thenComparing(Comparator.naturalOrder()))
                .limit(3)
                .map(name -> "'" + name + "'")
                .collect(Collectors.joining(" or ")) + "?";
    }

    private static String simpleName(String binaryName) {
        return binaryName.substring(binaryName.lastIndexOf('.') + 1);
    }

    private static int commonPrefix(String a, String b) {
        int length = 0;
        while (length < a.length() && length < b.length() && a.charAt(length) == b.charAt(length)) {
            length++;
        }
        return length;
    }

    private static <T> Supplier<T> memoized(Supplier<T> supplier) {
        return new Supplier<>() {
            private T value;

            @Override
            public T get() {
                if (value == null) {
                    value = supplier.get();
                }
                return value;
            }
        };
    }
}
