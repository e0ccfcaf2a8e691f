package io.github.retrytopology.maven;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.operations.plan.ApplyOptions;
import io.github.retrytopology.operations.plan.ApplyReport;
import io.github.retrytopology.operations.plan.TopologyPlanner;
import java.io.IOException;
import javax.inject.Inject;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.settings.crypto.SettingsDecrypter;

/**
 * Brings the spec's virtual host in step with {@code retry.yml}: creates what is missing, updates policies and
 * adds bindings; deletes empty, unused orphans with {@code -Dretry.prune=true}; recreates queues whose type or
 * arguments differ, moving their messages, with {@code -Dretry.migrate=true}. Then writes the plan that is left to
 * {@code target/retry/plan.json}.
 */
@Mojo(name = "apply", threadSafe = true)
public final class ApplyMojo extends BrokerMojo {

    /** Deletes orphans: queues only when they hold no message and have no consumer. */
    @Parameter(property = "retry.prune", defaultValue = "false")
    boolean prune;

    /** Recreates queues whose type or arguments differ, through a temporary queue; refused while they have consumers. */
    @Parameter(property = "retry.migrate", defaultValue = "false")
    boolean migrate;

    @Inject
    ApplyMojo(SettingsDecrypter decrypter) {
        super(decrypter);
    }

    @Override
    String activity() {
        return "retry topology apply";
    }

    @Override
    void run() throws IOException, MojoExecutionException, MojoFailureException {
        ApplyReport applied = TopologyPlanner.of(access())
                .apply(Specs.load(spec.toPath()), new ApplyOptions(prune, migrate), getLog()::info);
        if (applied.changedNothing()) {
            getLog().info("Changed nothing");
        }
        report(applied.after());
        judge(applied.after());
    }
}
