package io.github.retrytopology.model.load;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.classes.ClassReference.Use;
import io.github.retrytopology.model.classes.ClassReference;
import io.github.retrytopology.model.problem.InvalidSpecException;
import io.github.retrytopology.model.read.Located;
import io.github.retrytopology.model.read.Problems;
import io.github.retrytopology.model.read.SpecDraft.PolicyDraft;
import io.github.retrytopology.model.read.SpecDraft.RouteDraft;
import io.github.retrytopology.model.read.SpecDraft.ServiceDraft;
import io.github.retrytopology.model.read.SpecDraft;
import io.github.retrytopology.model.read.SpecReader;
import io.github.retrytopology.model.validate.SpecValidator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Reads {@code retry.yml} files: the one way into the model from a file. The file is read safely and checked
 * whole; every problem is reported at once, with its line and column.
 *
 * <pre>{@code
 * RetrySpec spec = Specs.load(Path.of("retry.yml"));
 * }</pre>
 */
public final class Specs {

    /** The largest spec file read: 1 MiB. */
    public static final int MAX_BYTES = SpecReader.MAX_BYTES;

    private Specs() {
    }

    /**
     * Reads and validates a spec file.
     *
     * @throws InvalidSpecException listing every problem of the file, if it has any
     * @throws IOException if the file cannot be read
     */
    public static RetrySpec load(Path file) throws IOException {
        return parse(readBytes(file), file.toString());
    }

    /**
     * Reads and validates a spec.
     *
     * @param content the file's bytes, UTF-8
     * @param file the file's name, as problems should name it
     * @throws InvalidSpecException listing every problem, if there is any
     */
    public static RetrySpec parse(byte[] content, String file) {
        return read(content, file).spec();
    }

    /**
     * Reads and validates a spec, and keeps where it names classes, for a check against the classes that exist.
     *
     * @param content the file's bytes, UTF-8
     * @param file the file's name, as problems should name it
     * @throws InvalidSpecException listing every problem, if there is any
     */
    public static SpecFile read(byte[] content, String file) {
        Problems problems = new Problems();
        Optional<SpecDraft> draft = SpecReader.read(content, file, problems);
        Optional<RetrySpec> spec = draft.flatMap(read -> SpecValidator.validate(read, problems));
        problems.throwIfAny(file);
        return new SpecFile(file, spec.orElseThrow(() -> new IllegalStateException("a spec without problems was not "
                + "built: " + file)), classReferences(draft.orElseThrow()));
    }

    /**
     * Reads the bytes of a spec file, never more than one past {@link #MAX_BYTES}: a larger file is refused anyway,
     * and a huge one must not fill the memory first.
     */
    public static byte[] readBytes(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes(MAX_BYTES + 1);
        }
    }

    /**
     * Every class a spec names, in file order, each where it is written: a {@code nonRetryable} list of
     * {@code defaults} once, however many services inherit it.
     */
    private static List<ClassReference> classReferences(SpecDraft spec) {
        List<ClassReference> named = new ArrayList<>();
        nonRetryable(spec.defaults(), named);
        for (ServiceDraft service : spec.services().value()) {
            for (RouteDraft route : service.routingKeys().value()) {
                if (route.payload() != null) {
                    named.add(reference(route.payload(), Use.PAYLOAD));
                }
            }
            nonRetryable(service.policy(), named);
        }
        named.sort(Comparator.comparing(ClassReference::position));
        return List.copyOf(named);
    }

    private static void nonRetryable(PolicyDraft policy, List<ClassReference> named) {
        if (policy.nonRetryable() != null) {
            policy.nonRetryable().value().forEach(name -> named.add(reference(name, Use.NON_RETRYABLE)));
        }
    }

    private static ClassReference reference(Located<String> name, Use use) {
        return new ClassReference(name.value(), use, name.position(), name.path());
    }
}
