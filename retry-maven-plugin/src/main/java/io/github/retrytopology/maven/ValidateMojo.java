package io.github.retrytopology.maven;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.read.InvalidSpecException;
import java.io.File;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/** Checks {@code retry.yml} and reports every problem, without generating anything. */
@Mojo(name = "validate", defaultPhase = LifecyclePhase.VALIDATE, threadSafe = true)
public final class ValidateMojo extends AbstractMojo {

    /** The spec. */
    @Parameter(property = "retry.spec", defaultValue = "${project.basedir}/retry.yml", required = true)
    File spec;

    /** Skips validation. */
    @Parameter(property = "retry.skip", defaultValue = "false")
    boolean skip;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("Skipping retry spec validation (retry.skip)");
            return;
        }
        try {
            RetrySpec valid = RetrySpec.load(spec.toPath());
            getLog().info(spec.getName() + " is valid: " + valid.services().size() + " service(s) on exchange "
                    + valid.exchange());
        } catch (InvalidSpecException e) {
            throw new MojoFailureException(e.getMessage(), e);
        } catch (NoSuchFileException e) {
            throw new MojoFailureException("There is no spec at " + spec + "; write one, or set retry.spec", e);
        } catch (IOException e) {
            throw new MojoExecutionException("Could not read " + spec + ": " + e, e);
        }
    }
}
