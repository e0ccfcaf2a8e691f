package io.github.retrytopology.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.retrytopology.model.classes.ClassCheck;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.problem.Problem;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A project's classes, from its output directory, its jars and the JDK, and the names suggested from them. */
class ProjectClassesTest {

    @TempDir
    Path work;

    private Path classes;
    private Path jar;

    @BeforeEach
    void compileAProject() throws IOException {
        classes = compile(work.resolve("classes"), Map.of(
                "com/acme/orders/OutOfStockException.java", "package com.acme.orders;\n"
                        + "public class OutOfStockException extends RuntimeException {\n"
                        + "    static final Runnable ANONYMOUS = new Runnable() { public void run() { } };\n}\n",
                "com/acme/orders/Order.java", "package com.acme.orders;\npublic record Order(String id) {\n}\n"));
        Path vendor = compile(work.resolve("vendor"), Map.of("org/vendor/VendorException.java",
                "package org.vendor;\npublic class VendorException extends Exception {\n}\n"));
        jar = work.resolve("vendor.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("org/vendor/VendorException.class"));
            out.write(Files.readAllBytes(vendor.resolve("org/vendor/VendorException.class")));
            out.closeEntry();
        }
    }

    @Test
    void loadsTheProjectsClassesAndTheJdksButNotThePlugins() throws Exception {
        try (ProjectClasses project = ProjectClasses.of(List.of(classes, jar))) {
            assertThat(project.load("com.acme.orders.OutOfStockException").getSuperclass()).isEqualTo(RuntimeException.class);
            assertThat(project.load("org.vendor.VendorException")).isNotNull();
            assertThat(project.load("java.sql.SQLException")).isNotNull();
            assertThatThrownBy(() -> project.load("io.github.retrytopology.model.RetrySpec"))
                    .isInstanceOf(ClassNotFoundException.class);
        }
    }

    @Test
    void listsTheClassesOneCanWrite() throws Exception {
        try (ProjectClasses project = ProjectClasses.of(List.of(classes, jar, work.resolve("missing")))) {
            assertThat(project.classNames()).contains("com.acme.orders.OutOfStockException", "com.acme.orders.Order",
                    "org.vendor.VendorException", "java.lang.IllegalArgumentException", "java.io.UncheckedIOException")
                    .noneMatch(name -> name.contains("$1") || name.endsWith("module-info"));
        }
    }

    @Test
    void suggestsTheClassMeantFromTheProjectsClasses() throws Exception {
        byte[] spec = ("version: 1\npackage: com.acme.retry\nexchange: acme.events\nservices:\n  email:\n"
                + "    routingKeys: [order.created]\n    maxAttempts: 1\n    nonRetryable:\n"
                + "      - com.acme.orders.OutOfStokException\n      - com.acme.OutOfStockException\n"
                + "      - com.acme.orders.Order\n      - java.lang.IllegalArgumentExeption\n"
                + "      - org.vendor.VendorException\n").getBytes(StandardCharsets.UTF_8);

        List<Problem> problems;
        try (ProjectClasses project = ProjectClasses.of(List.of(classes, jar))) {
            problems = ClassCheck.check(Specs.read(spec, "retry.yml").classes(), project);
        }

        assertThat(problems).extracting(Problem::toString).containsExactly(
                "retry.yml:9:9 [unknown-class] services.email.nonRetryable[0]: there is no non-retryable exception "
                        + "'com.acme.orders.OutOfStokException' on the class path; did you mean "
                        + "'com.acme.orders.OutOfStockException'?",
                "retry.yml:10:9 [unknown-class] services.email.nonRetryable[1]: there is no non-retryable exception "
                        + "'com.acme.OutOfStockException' on the class path; did you mean "
                        + "'com.acme.orders.OutOfStockException'?",
                "retry.yml:11:9 [not-throwable] services.email.nonRetryable[2]: 'com.acme.orders.Order' is a record, "
                        + "not an exception: a non-retryable class extends java.lang.Throwable",
                "retry.yml:12:9 [unknown-class] services.email.nonRetryable[3]: there is no non-retryable exception "
                        + "'java.lang.IllegalArgumentExeption' on the class path; did you mean "
                        + "'java.lang.IllegalArgumentException'?");
    }

    private static Path compile(Path output, Map<String, String> sources) throws IOException {
        Path sourceRoot = Files.createDirectories(output.resolveSibling(output.getFileName() + "-sources"));
        List<String> arguments = new ArrayList<>(List.of("-d", output.toString()));
        for (Map.Entry<String, String> source : sources.entrySet()) {
            Path file = sourceRoot.resolve(source.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, source.getValue());
            arguments.add(file.toString());
        }
        OutputStream quiet = OutputStream.nullOutputStream();
        int status = ToolProvider.getSystemJavaCompiler().run(null, quiet, quiet, arguments.toArray(String[]::new));
        assertThat(status).as("javac").isZero();
        try (Stream<Path> compiled = Files.walk(output)) {
            assertThat(compiled.filter(file -> file.toString().endsWith(".class"))).isNotEmpty();
        }
        return output;
    }
}
