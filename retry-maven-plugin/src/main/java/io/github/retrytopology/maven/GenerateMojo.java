package io.github.retrytopology.maven;

import io.github.retrytopology.maven.generator.GenerationException;
import io.github.retrytopology.maven.generator.GenerationRequest;
import io.github.retrytopology.maven.generator.GenerationResult;
import io.github.retrytopology.maven.generator.Generator;
import java.io.File;
import java.io.IOException;
import org.apache.maven.model.Resource;
import org.apache.maven.plugin.MojoExecutionException;
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
public final class GenerateMojo extends SpecMojo {

    /** Where the Java sources go; added as a compile source root. */
    @Parameter(property = "retry.outputDirectory", defaultValue = "${project.build.directory}/generated-sources/retry",
            required = true)
    File outputDirectory;

    /** Where the definitions and the diagram go; added as a resource directory. */
    @Parameter(property = "retry.resourceOutputDirectory",
            defaultValue = "${project.build.directory}/generated-resources/retry", required = true)
    File resourceOutputDirectory;

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    @Parameter(defaultValue = "${plugin}", readonly = true, required = true)
    PluginDescriptor plugin;

    @Override
    String activity() {
        return "retry topology generation";
    }

    @Override
    void run() throws IOException, MojoExecutionException {
        GenerationRequest request = new GenerationRequest(spec.toPath(), outputDirectory.toPath(),
                resourceOutputDirectory.toPath(), plugin.getVersion());
        GenerationResult result;
        try {
            result = new Generator().generate(request);
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
