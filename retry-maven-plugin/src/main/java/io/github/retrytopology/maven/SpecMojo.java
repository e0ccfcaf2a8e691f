package io.github.retrytopology.maven;

import io.github.retrytopology.model.problem.InvalidSpecException;
import java.io.File;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;

/** What both goals share: the spec, skipping, and how a spec that cannot be used fails the build. */
abstract class SpecMojo extends AbstractMojo {

    /** The spec. */
    @Parameter(property = "retry.spec", defaultValue = "${project.basedir}/retry.yml", required = true)
    File spec;

    /** Skips the goal. */
    @Parameter(property = "retry.skip", defaultValue = "false")
    boolean skip;

    @Override
    public final void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("Skipping " + activity() + " (retry.skip)");
            return;
        }
        try {
            run();
        } catch (InvalidSpecException e) {
            throw new MojoFailureException(e.getMessage(), e);
        } catch (NoSuchFileException e) {
            throw new MojoFailureException("There is no spec at " + spec + "; write one, or set retry.spec", e);
        } catch (IOException e) {
            throw new MojoExecutionException("The " + activity() + " of " + spec + " failed: " + e, e);
        }
    }

    /** What the goal does, for messages: "retry topology generation". */
    abstract String activity();

    /** Does it, once the spec is known not to be skipped. */
    abstract void run() throws IOException, MojoExecutionException, MojoFailureException;
}
