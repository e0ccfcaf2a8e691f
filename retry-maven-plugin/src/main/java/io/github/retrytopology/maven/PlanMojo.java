package io.github.retrytopology.maven;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.operations.plan.Plan;
import io.github.retrytopology.operations.plan.TopologyPlanner;
import java.io.IOException;
import javax.inject.Inject;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.settings.crypto.SettingsDecrypter;

/**
 * Shows, object by object, what differs between {@code retry.yml} and its virtual host on a live broker, grouped
 * by service, and writes it to {@code target/retry/plan.json}; changes nothing. With
 * {@code -Dretry.failOnDrift=true}, drift fails the build.
 */
@Mojo(name = "plan", threadSafe = true)
public final class PlanMojo extends BrokerMojo {

    @Inject
    PlanMojo(SettingsDecrypter decrypter) {
        super(decrypter);
    }

    @Override
    String activity() {
        return "retry topology plan";
    }

    @Override
    void run() throws IOException, MojoExecutionException, MojoFailureException {
        Plan plan = TopologyPlanner.of(access()).plan(Specs.load(spec.toPath()));
        report(plan);
        judge(plan);
    }
}
