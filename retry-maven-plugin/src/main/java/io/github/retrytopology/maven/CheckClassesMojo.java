package io.github.retrytopology.maven;

import io.github.retrytopology.model.classes.ClassCheck;
import io.github.retrytopology.model.classes.ClassReference;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.problem.InvalidSpecException;
import io.github.retrytopology.model.problem.Problem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProject;

/**
 * Once the project's classes are compiled, loads every {@code payload} and {@code nonRetryable} class that
 * {@code retry.yml} names from the project's class path (its classes and its compile, provided and runtime
 * dependencies, and the JDK), and requires a {@code nonRetryable} class to be an exception. Each class that is
 * not there fails the build at its line and column in the spec, with the class likely meant.
 */
@Mojo(name = "check-classes", defaultPhase = LifecyclePhase.PROCESS_CLASSES, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.COMPILE_PLUS_RUNTIME)
public final class CheckClassesMojo extends SpecMojo {

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    @Override
    String activity() {
        return "retry spec class check";
    }

    @Override
    void run() throws IOException, MojoExecutionException {
        List<ClassReference> named = Specs.read(Specs.readBytes(spec.toPath()), spec.toString()).classes();
        List<Problem> problems;
        try (ProjectClasses classes = ProjectClasses.of(classPath())) {
            problems = ClassCheck.check(named, classes);
        }
        if (!problems.isEmpty()) {
            throw new InvalidSpecException(spec.toString(), problems);
        }
        getLog().info(named.isEmpty() ? spec.getName() + " names no class"
                : named.size() == 1 ? "The class " + spec.getName() + " names is on the class path"
                : "The " + named.size() + " classes " + spec.getName() + " names are all on the class path");
    }

    private List<Path> classPath() throws MojoExecutionException {
        try {
            Set<String> elements = new LinkedHashSet<>(project.getCompileClasspathElements());
            elements.addAll(project.getRuntimeClasspathElements());
            return elements.stream().map(Path::of).toList();
        } catch (DependencyResolutionRequiredException e) {
            throw new MojoExecutionException("The project's class path is not resolved: " + e.getMessage(), e);
        }
    }
}
