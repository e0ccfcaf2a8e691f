package io.github.retrytopology.model.classes;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.classes.ClassReference.Use;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.problem.Problem;
import io.github.retrytopology.model.problem.ProblemCode;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The classes a spec names, checked against the classes there are: positions, codes and "did you mean". */
class ClassCheckTest {

    private static final String SPEC = """
            version: 1
            package: com.acme.retry
            exchange: acme.events
            defaults:
              maxAttempts: 1
              nonRetryable: [java.lang.IllegalArgumentExeption, java.io.UncheckedIOException]
            services:
              email:
                routingKeys:
                  - key: order.created
                    payload: java.util.Lst
                  - key: order.paid
                    payload: java.util.List
                nonRetryable: [java.util.List, io.github.retrytopology.model.classes.UncheckedIOException]
            """;

    /** The classes of this test's class path that the suggestions are drawn from. */
    private static final List<String> CLASS_NAMES = List.of("java.lang.IllegalArgumentException",
            "java.lang.IllegalStateException", "java.io.UncheckedIOException", "java.util.List", "java.util.ArrayList",
            "io.github.retrytopology.model.classes.ClassCheck");

    private final ClassFinder finder = new ClassFinder() {
        @Override
        public Class<?> load(String binaryName) throws ClassNotFoundException {
            return Class.forName(binaryName, false, ClassCheckTest.class.getClassLoader());
        }

        @Override
        public Collection<String> classNames() {
            return CLASS_NAMES;
        }
    };

    @Test
    void keepsEveryClassWhereTheSpecWritesItFromItsFirstReading() {
        List<ClassReference> named = Specs.read(SPEC.getBytes(StandardCharsets.UTF_8), "retry.yml").classes();

        assertThat(named).extracting(one -> one.position().line() + ":" + one.position().column() + " "
                        + one.use() + " " + one.name())
                .containsExactly(
                        "6:18 NON_RETRYABLE java.lang.IllegalArgumentExeption",
                        "6:53 NON_RETRYABLE java.io.UncheckedIOException",
                        "11:18 PAYLOAD java.util.Lst",
                        "13:18 PAYLOAD java.util.List",
                        "14:20 NON_RETRYABLE java.util.List",
                        "14:36 NON_RETRYABLE io.github.retrytopology.model.classes.UncheckedIOException");
    }

    @Test
    void reportsMissingClassesAndNonExceptionsAtTheirPlaceWithTheClassMeant() {
        List<Problem> problems = ClassCheck.check(Specs.read(SPEC.getBytes(StandardCharsets.UTF_8), "retry.yml").classes(), finder);

        assertThat(problems).extracting(Problem::toString).containsExactly(
                "retry.yml:6:18 [unknown-class] defaults.nonRetryable[0]: there is no non-retryable exception "
                        + "'java.lang.IllegalArgumentExeption' on the class path; did you mean "
                        + "'java.lang.IllegalArgumentException'?",
                "retry.yml:11:18 [unknown-class] services.email.routingKeys[0].payload: there is no payload class "
                        + "'java.util.Lst' on the class path; did you mean 'java.util.List'?",
                "retry.yml:14:20 [not-throwable] services.email.nonRetryable[0]: 'java.util.List' is an interface, not "
                        + "an exception: a non-retryable class extends java.lang.Throwable",
                "retry.yml:14:36 [unknown-class] services.email.nonRetryable[1]: there is no non-retryable exception "
                        + "'io.github.retrytopology.model.classes.UncheckedIOException' on the class path; did you mean "
                        + "'java.io.UncheckedIOException'?");
    }

    @Test
    void suggestsTheSameClassInOtherPackagesNearestFirst() {
        List<String> classes = List.of("com.acme.orders.OutOfStockException", "com.acme.billing.OutOfStockException",
                "org.other.OutOfStockException", "com.acme.orders.Order");

        assertThat(ClassCheck.didYouMean("com.acme.OutOfStockException", classes)).isEqualTo("; did you mean "
                + "'com.acme.billing.OutOfStockException' or 'com.acme.orders.OutOfStockException' or "
                + "'org.other.OutOfStockException'?");
        assertThat(ClassCheck.didYouMean("com.acme.orders.OutOfStokException", classes))
                .isEqualTo("; did you mean 'com.acme.orders.OutOfStockException'?");
        assertThat(ClassCheck.didYouMean("com.acme.OutOfStokException", classes))
                .isEqualTo("; did you mean 'com.acme.billing.OutOfStockException' or "
                        + "'com.acme.orders.OutOfStockException' or 'org.other.OutOfStockException'?");
        assertThat(ClassCheck.didYouMean("com.acme.Invoice", classes)).isEmpty();
        assertThat(ClassCheck.didYouMean("com.acme.Invoice", List.of())).isEmpty();
    }

    @Test
    void aClassThatIsThereAndFitIsNoProblem() {
        byte[] spec = SPEC.replace("IllegalArgumentExeption", "IllegalArgumentException").replace("java.util.Lst",
                "java.util.List").replace("[java.util.List, io.github.retrytopology.model.classes.UncheckedIOException]",
                "[java.io.UncheckedIOException]").getBytes(StandardCharsets.UTF_8);

        assertThat(ClassCheck.check(Specs.read(spec, "retry.yml").classes(), finder)).isEmpty();
    }

    @Test
    void warnsOfTheNonRetryableClassesAnApplicationCannotLoad() {
        RetrySpec spec = Specs.parse(SPEC.getBytes(StandardCharsets.UTF_8), "retry.yml");

        assertThat(ClassCheck.nonRetryableProblems(spec.service("email"), ClassCheckTest.class.getClassLoader()))
                .containsExactly(
                        "service 'email': 'java.util.List' is an interface, not an exception: a non-retryable class "
                                + "extends java.lang.Throwable",
                        "service 'email': there is no non-retryable exception "
                                + "'io.github.retrytopology.model.classes.UncheckedIOException' on the class path; no "
                                + "exception of it can be thrown here, so the failure meant is retried");
    }

    @Test
    void describesEachUse() {
        assertThat(Use.PAYLOAD.description()).isEqualTo("payload class");
        assertThat(ProblemCode.NOT_THROWABLE.id()).isEqualTo("not-throwable");
    }
}
