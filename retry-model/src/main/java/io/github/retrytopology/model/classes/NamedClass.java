package io.github.retrytopology.model.classes;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.read.Located;
import io.github.retrytopology.model.read.Problems;
import io.github.retrytopology.model.read.SpecDraft;
import io.github.retrytopology.model.read.SpecDraft.PolicyDraft;
import io.github.retrytopology.model.read.SpecDraft.RouteDraft;
import io.github.retrytopology.model.read.SpecDraft.ServiceDraft;
import io.github.retrytopology.model.read.SpecReader;
import io.github.retrytopology.model.validate.SpecValidator;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A class that a spec names, where it names it: a {@code payload} or a {@code nonRetryable} entry.
 *
 * @param name the binary name, located in the file
 * @param use what the spec names it for
 */
public record NamedClass(Located<String> name, Use use) {

    public NamedClass {
        requireNonNull(name, "name");
        requireNonNull(use, "use");
    }

    /** What a spec names a class for. */
    public enum Use {
        /** A routing key's {@code payload}: the body is decoded into it. */
        PAYLOAD("payload class"),
        /** An entry of {@code nonRetryable}: an exception that parks a message at once. */
        NON_RETRYABLE("non-retryable exception");

        private final String description;

        Use(String description) {
            this.description = description;
        }

        /** What the class is, for messages: "payload class". */
        public String description() {
            return description;
        }
    }

    /**
     * Every class a valid spec names, in file order, each where it is written: a {@code nonRetryable} list of
     * {@code defaults} once, however many services inherit it.
     *
     * @param content the spec file's bytes
     * @param file the file's name, as problems should name it
     * @throws io.github.retrytopology.model.read.InvalidSpecException listing every problem, if the spec has any
     */
    public static List<NamedClass> in(byte[] content, String file) {
        Problems problems = new Problems();
        Optional<SpecDraft> draft = SpecReader.read(content, file, problems);
        draft.ifPresent(read -> SpecValidator.validate(read, problems));
        problems.throwIfAny(file);
        SpecDraft spec = draft.orElseThrow(() -> new IllegalStateException("a spec without problems was not read: " + file));
        List<NamedClass> named = new ArrayList<>();
        nonRetryable(spec.defaults(), named);
        for (ServiceDraft service : spec.services().value()) {
            for (RouteDraft route : service.routingKeys().value()) {
                if (route.payload() != null) {
                    named.add(new NamedClass(route.payload(), Use.PAYLOAD));
                }
            }
            nonRetryable(service.policy(), named);
        }
        named.sort((a, b) -> a.name().position().compareTo(b.name().position()));
        return List.copyOf(named);
    }

    private static void nonRetryable(PolicyDraft policy, List<NamedClass> named) {
        if (policy.nonRetryable() != null) {
            policy.nonRetryable().value().forEach(name -> named.add(new NamedClass(name, Use.NON_RETRYABLE)));
        }
    }
}
