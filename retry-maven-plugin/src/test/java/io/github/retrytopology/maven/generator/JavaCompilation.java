package io.github.retrytopology.maven.generator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/** Compiles generated sources the strict way: Java 17, every lint warning an error. */
final class JavaCompilation {

    private JavaCompilation() {
    }

    /**
     * Compiles the Java files among {@code files}, with more sources given by path (relative to the package
     * root) and content, against the test class path, and fails the test on any warning.
     */
    static Path compile(List<GeneratedFile> files, Map<String, String> moreSources, Path workDirectory) throws IOException {
        Result result = tryCompile(files, moreSources, workDirectory, List.of());
        assertThat(result.output()).as("compiler output").isEmpty();
        assertThat(result.compiled()).as("the generated code compiles").isTrue();
        return result.classes();
    }

    /** What a compilation made: whether it succeeded, what javac said, and where the classes went. */
    record Result(boolean compiled, String output, Path classes) {
        boolean clean() {
            return compiled && output.isEmpty();
        }
    }

    /** Compiles as {@link #compile} does, with more class path entries, and reports rather than asserts. */
    static Result tryCompile(List<GeneratedFile> files, Map<String, String> moreSources, Path workDirectory,
            List<Path> classPath) throws IOException {
        Path sources = Files.createDirectories(workDirectory.resolve("src"));
        Path classes = Files.createDirectories(workDirectory.resolve("classes"));
        List<Path> javaFiles = new ArrayList<>();
        for (GeneratedFile file : files) {
            if (file.path().toString().endsWith(".java")) {
                javaFiles.add(file.path());
            }
        }
        for (Map.Entry<String, String> source : moreSources.entrySet()) {
            Path path = sources.resolve(source.getKey());
            Files.createDirectories(path.getParent());
            Files.writeString(path, source.getValue());
            javaFiles.add(path);
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        StringWriter output = new StringWriter();
        try (StandardJavaFileManager fileManager = compiler.getStandardFileManager(null, null, null)) {
            Iterable<? extends JavaFileObject> units = fileManager.getJavaFileObjectsFromPaths(javaFiles);
            StringBuilder path = new StringBuilder(System.getProperty("java.class.path"));
            classPath.forEach(entry -> path.append(java.io.File.pathSeparator).append(entry));
            List<String> options = List.of("--release", "17", "-Xlint:all", "-Werror", "-proc:none",
                    "-classpath", path.toString(), "-d", classes.toString());
            boolean compiled = compiler.getTask(output, fileManager, null, options, null, units).call();
            return new Result(compiled, output.toString(), classes);
        }
    }
}
