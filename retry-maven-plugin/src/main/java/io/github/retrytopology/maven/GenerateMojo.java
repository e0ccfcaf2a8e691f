package io.github.retrytopology.maven;

import io.github.retrytopology.maven.generator.GenerationException;
import io.github.retrytopology.maven.generator.GenerationRequest;
import io.github.retrytopology.maven.generator.GenerationResult;
import io.github.retrytopology.maven.generator.Generator;
import io.github.retrytopology.model.read.InvalidSpecException;
import java.io.File;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import org.apache.maven.model.Resource;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * Generates, from {@code retry.yml}, a handler interface per service and a class holding every name and
 * policy (added as a compile source root), and the RabbitMQ definitions and a Mermaid picture of the topology
 * (added as a resource, so they ship in the jar beside the generated classes). Does nothing when neither the
 * spec, this configuration nor the plugin changed since the last run.
 */
@Mojo(name = "generate", defaultPhase = LifecyclePhase.GENERATE_SOURCES, threadSafe = true)
public final class GenerateMojo extends AbstractMojo {

    /** The spec. */
    @Parameter(property = "retry.spec", defaultValue = "${project.basedir}/retry.yml", required = true)
    File spec;

    /** Where the Java sources go; added as a compile source root. */
    @Parameter(property = "retry.outputDirectory", defaultValue = "${project.build.directory}/generated-sources/retry",
            required = true)
    File outputDirectory;

    /** Where the definitions and the diagram go; added as a resource directory. */
    @Parameter(property = "retry.resourceOutputDirectory",
            defaultValue = "${project.build.directory}/generated-resources/retry", required = true)
    File resourceOutputDirectory;

    /** Skips generation. */
    @Parameter(property = "retry.skip", defaultValue = "false")
    boolean skip;

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    @Parameter(defaultValue = "${plugin}", readonly = true, required = true)
    PluginDescriptor plugin;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("Skipping retry topology generation (retry.skip)");
            return;
        }
        GenerationRequest request = new GenerationRequest(spec.toPath(), outputDirectory.toPath(),
                resourceOutputDirectory.toPath(), plugin.getVersion());
        GenerationResult result;
        try {
            result = new Generator().generate(request);
        } catch (InvalidSpecException e) {
            throw new MojoFailureException(e.getMessage(), e);
        } catch (NoSuchFileException e) {
            throw new MojoFailureException("There is no spec at " + spec + "; write one, or set retry.spec", e);
        } catch (IOException e) {
            throw new MojoExecutionException("Could not generate from " + spec + ": " + e, e);
        } catch (GenerationException e) {
            throw new MojoExecutionException(e.getMessage(), e);
        }
        project.addCompileSourceRoot(request.javaOutput().toString());
        addResourceDirectory(request.resourceOutput().toString());
        if (result.upToDate()) {
            getLog().debug("Retry topology of " + spec + " is up to date");
        } else if (!result.written().isEmpty() || !result.deleted().isEmpty()) {
            int total = result.written().size() + result.unchanged().size();
            getLog().info("Generated " + result.written().size() + " of " + total + " retry topology files from "
                    + spec.getName() + (result.deleted().isEmpty() ? "" : ", deleted " + result.deleted().size()
                    + " stale"));
        }
    }

    private void addResourceDirectory(String directory) {
        boolean present = project.getResources().stream().anyMatch(resource -> directory.equals(resource.getDirectory()));
        if (!present) {
            Resource resource = new Resource();
            resource.setDirectory(directory);
            project.addResource(resource);
        }
    }
}
