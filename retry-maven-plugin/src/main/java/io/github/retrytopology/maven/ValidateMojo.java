package io.github.retrytopology.maven;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.load.Specs;
import java.io.IOException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;

/** Checks {@code retry.yml} and reports every problem, without generating anything. */
@Mojo(name = "validate", defaultPhase = LifecyclePhase.VALIDATE, threadSafe = true)
public final class ValidateMojo extends SpecMojo {

    @Override
    String activity() {
        return "retry spec validation";
    }

    @Override
    void run() throws IOException {
        RetrySpec valid = Specs.load(spec.toPath());
        getLog().info(spec.getName() + " is valid: " + valid.services().size() + " service(s) on exchange "
                + valid.exchange());
    }
}
