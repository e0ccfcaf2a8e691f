package io.github.retrytopology.model.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.problem.InvalidSpecException;
import io.github.retrytopology.model.problem.ProblemCode;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Packages that generated code cannot be put in, and packages it can. */
class JavaNamesTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "javax.crypto                | the JDK's module java.base has it",
        "sun.misc                    | the JDK's module jdk.unsupported has it",
        "javax.annotation.processing | the JDK's module java.compiler has it",
        "jdk.internal.misc           | the JDK's module java.base has it",
        "java.util                   | packages under 'java' belong to the JDK",
        "com.acme$retry              | 'acme$retry' has a '$'",
        "Com.acme                    | 'Com' starts with an upper-case letter",
        "com.acme.enum               | 'enum' is a Java keyword",
    })
    void refusesAPackageGeneratedCodeCannotBeIn(String javaPackage, String reason) {
        InvalidSpecException error = catchThrowableOfType(InvalidSpecException.class,
                () -> Specs.parse(spec(javaPackage), "retry.yml"));

        assertThat(error.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.code()).isEqualTo(ProblemCode.BAD_PACKAGE);
            assertThat(problem.message()).contains(reason);
        });
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"javax.crypto.acme", "com.sun.acme", "été.retry", "_x.record.var", "c1.µ.yield"})
    void acceptsPackagesBesideTheJdksAndOfAnyScript(String javaPackage) {
        assertThat(Specs.parse(spec(javaPackage), "retry.yml").javaPackage()).isEqualTo(javaPackage);
    }

    private static byte[] spec(String javaPackage) {
        return ("version: 1\npackage: \"" + javaPackage + "\"\nexchange: acme.events\nservices:\n"
                + "  email: {routingKeys: [order.created], maxAttempts: 1}\n").getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "IllegalArgumentException | with the package it is declared in, such as java.lang.IllegalArgumentException",
        "IOException              | with the package it is declared in, such as java.io.IOException",
        "TimeoutException         | with the package it is declared in, such as java.util.concurrent.TimeoutException",
        "OutOfStockException      | with the package it is declared in",
    })
    void suggestsAPackageForAClassWithoutOneOnlyWhereTheJdkHasTheClass(String className, String message) {
        InvalidSpecException error = catchThrowableOfType(InvalidSpecException.class, () -> Specs.parse(
                ("version: 1\npackage: com.acme.retry\nexchange: acme.events\nservices:\n  email: {routingKeys: "
                        + "[order.created], maxAttempts: 1, nonRetryable: [" + className + "]}\n")
                        .getBytes(StandardCharsets.UTF_8), "retry.yml"));

        assertThat(error.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.code()).isEqualTo(ProblemCode.BAD_CLASS_NAME);
            assertThat(problem.message()).endsWith("it has no package; write its fully qualified name, " + message);
        });
    }
}
