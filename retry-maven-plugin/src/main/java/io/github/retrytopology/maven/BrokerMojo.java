package io.github.retrytopology.maven;

import io.github.retrytopology.operations.broker.BrokerAccess;
import io.github.retrytopology.operations.plan.Plan;
import io.github.retrytopology.operations.plan.PlanJson;
import io.github.retrytopology.operations.plan.PlanTable;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.settings.Server;
import org.apache.maven.settings.Settings;
import org.apache.maven.settings.building.SettingsProblem;
import org.apache.maven.settings.crypto.DefaultSettingsDecryptionRequest;
import org.apache.maven.settings.crypto.SettingsDecrypter;
import org.apache.maven.settings.crypto.SettingsDecryptionResult;

/**
 * What the goals that talk to a broker share: where the broker is, who to be there, where the plan goes and
 * whether drift fails the build. They map these into the runtime's {@link BrokerAccess} and call its planner.
 */
abstract class BrokerMojo extends SpecMojo {

    /**
     * The management API, such as {@code https://rabbit:15671}; several, comma-separated, for the nodes of a
     * cluster, tried in order. Default: {@code $RABBITMQ_MANAGEMENT_URI}, else port 15672 of each AMQP host.
     */
    @Parameter(property = "retry.managementUri")
    String managementUri;

    /**
     * The AMQP URI, which only {@code retry:apply -Dretry.migrate} uses; comma-separated for several. Default:
     * {@code $RABBITMQ_URI}, else {@code amqp://localhost:5672}.
     */
    @Parameter(property = "retry.uri")
    String uri;

    /** The id of a {@code <server>} in Maven's settings.xml whose username and password to use. */
    @Parameter(property = "retry.serverId")
    String serverId;

    /** The user, when there is no server id. Default: {@code $RABBITMQ_USERNAME}, else the URIs' user, else guest. */
    @Parameter(property = "retry.username")
    String username;

    /** Its password. Default: {@code $RABBITMQ_PASSWORD}, else the URIs'. */
    @Parameter(property = "retry.password")
    String password;

    /** Fails the build when the broker is not in sync with the spec (after applying, for retry:apply). */
    @Parameter(property = "retry.failOnDrift", defaultValue = "false")
    boolean failOnDrift;

    /** Where the plan is written, as JSON. */
    @Parameter(property = "retry.planFile", defaultValue = "${project.build.directory}/retry/plan.json", required = true)
    File planFile;

    @Parameter(defaultValue = "${settings}", readonly = true)
    Settings settings;

    /** Reads the environment; a field so that tests can give their own. */
    Function<String, String> environment = System::getenv;

    private final SettingsDecrypter decrypter;

    BrokerMojo(SettingsDecrypter decrypter) {
        this.decrypter = decrypter;
    }

    /** How to reach the broker, from the parameters, settings.xml and the environment, in that order. */
    BrokerAccess access() throws MojoExecutionException {
        Optional<String> user = given(username).or(() -> given(environment.apply("RABBITMQ_USERNAME")));
        Optional<String> secret = given(password).or(() -> given(environment.apply("RABBITMQ_PASSWORD")));
        if (given(serverId).isPresent()) {
            Server server = server(serverId);
            user = Optional.ofNullable(server.getUsername());
            secret = Optional.ofNullable(server.getPassword());
            if (user.isEmpty() || secret.isEmpty()) {
                throw new MojoExecutionException("The <server> '" + serverId + "' in settings.xml needs a username and "
                        + "a password");
            }
        }
        try {
            return BrokerAccess.of(list(given(managementUri).or(() -> given(environment.apply("RABBITMQ_MANAGEMENT_URI")))),
                    list(given(uri).or(() -> given(environment.apply("RABBITMQ_URI")))), user, secret);
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException(e.getMessage(), e);
        }
    }

    private Server server(String id) throws MojoExecutionException {
        Server server = settings == null ? null : settings.getServer(id);
        if (server == null) {
            throw new MojoExecutionException("There is no <server> with the id '" + id + "' in settings.xml; add one "
                    + "with the broker's username and password, or set retry.serverId to one that exists");
        }
        SettingsDecryptionResult decrypted = decrypter.decrypt(new DefaultSettingsDecryptionRequest(server));
        for (SettingsProblem problem : decrypted.getProblems()) {
            if (problem.getSeverity() != SettingsProblem.Severity.WARNING) {
                throw new MojoExecutionException("The password of <server> '" + id + "' could not be decrypted: "
                        + problem.getMessage());
            }
        }
        return decrypted.getServer();
    }

    /** Prints a plan, grouped by service, and writes it as JSON. */
    void report(Plan plan) throws IOException {
        for (String line : PlanTable.lines(plan)) {
            getLog().info(line);
        }
        PlanJson.write(plan, planFile.toPath());
        getLog().info("Wrote the plan to " + planFile);
    }

    /** Fails the build on drift if asked to, else warns. */
    void judge(Plan plan) throws MojoFailureException {
        if (plan.inSync()) {
            return;
        }
        String message = "The broker is not in sync with " + spec.getName() + ": " + PlanTable.summary(plan) + "; see "
                + planFile;
        if (failOnDrift) {
            throw new MojoFailureException(message);
        }
        getLog().warn(message);
    }

    private static Optional<String> given(String value) {
        return Optional.ofNullable(value).filter(text -> !text.isBlank());
    }

    private static List<String> list(Optional<String> value) {
        List<String> values = new ArrayList<>();
        value.ifPresent(values::add);
        return values;
    }
}
