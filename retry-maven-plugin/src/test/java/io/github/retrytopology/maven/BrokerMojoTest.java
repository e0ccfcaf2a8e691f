package io.github.retrytopology.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.retrytopology.operations.broker.BrokerAccess;
import java.net.URI;
import java.util.Map;
import org.apache.maven.api.plugin.testing.Basedir;
import org.apache.maven.api.plugin.testing.InjectMojo;
import org.apache.maven.api.plugin.testing.MojoParameter;
import org.apache.maven.api.plugin.testing.MojoTest;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.settings.Server;
import org.apache.maven.settings.Settings;
import org.junit.jupiter.api.Test;

/** How retry:plan and retry:apply work out where the broker is and who to be there; no broker needed. */
@MojoTest
class BrokerMojoTest {

    @Test
    @Basedir("/projects/valid")
    @InjectMojo(goal = "plan")
    @MojoParameter(name = "serverId", value = "rabbit-prod")
    @MojoParameter(name = "managementUri", value = "https://a:15671,https://b:15671")
    void takesTheCredentialsOfASettingsServer(PlanMojo mojo) throws Exception {
        mojo.settings = settingsWith("rabbit-prod", "deployer", "s3cret");
        mojo.environment = Map.of("RABBITMQ_USERNAME", "ignored", "RABBITMQ_PASSWORD", "ignored")::get;

        BrokerAccess access = mojo.access();

        assertThat(access.management()).isEqualTo(new BrokerAccess.Credentials("deployer", "s3cret"));
        assertThat(access.managementUris()).containsExactly(URI.create("https://a:15671"), URI.create("https://b:15671"));
    }

    @Test
    @Basedir("/projects/valid")
    @InjectMojo(goal = "apply")
    void fallsBackOnTheEnvironment(ApplyMojo mojo) throws Exception {
        mojo.environment = Map.of("RABBITMQ_USERNAME", "ops", "RABBITMQ_PASSWORD", "pw",
                "RABBITMQ_URI", "amqp://rabbit-1,amqp://rabbit-2")::get;

        BrokerAccess access = mojo.access();

        assertThat(access.amqp()).isEqualTo(new BrokerAccess.Credentials("ops", "pw"));
        assertThat(access.managementUris()).containsExactly(URI.create("http://rabbit-1:15672"),
                URI.create("http://rabbit-2:15672"));
        assertThat(mojo.prune).isFalse();
        assertThat(mojo.migrate).isFalse();
        assertThat(mojo.failOnDrift).isFalse();
        assertThat(mojo.planFile.toPath().endsWith(java.nio.file.Path.of("target", "retry", "plan.json"))).isTrue();
    }

    @Test
    @Basedir("/projects/valid")
    @InjectMojo(goal = "plan")
    @MojoParameter(name = "serverId", value = "nowhere")
    void saysWhichServerIsMissing(PlanMojo mojo) {
        mojo.settings = settingsWith("rabbit-prod", "deployer", "s3cret");

        assertThatThrownBy(mojo::access)
                .isInstanceOf(MojoExecutionException.class)
                .hasMessage("There is no <server> with the id 'nowhere' in settings.xml; add one with the broker's "
                        + "username and password, or set retry.serverId to one that exists");
    }

    @Test
    @Basedir("/projects/valid")
    @InjectMojo(goal = "plan")
    @MojoParameter(name = "managementUri", value = "http://deployer:s3cret@bad host")
    void neverShowsAPasswordInAnError(PlanMojo mojo) {
        mojo.environment = name -> null;

        assertThatThrownBy(mojo::access)
                .isInstanceOf(MojoExecutionException.class)
                .hasMessageNotContaining("s3cret")
                .hasMessageStartingWith("'http://deployer:***@bad host' is not a management URI");
    }

    private static Settings settingsWith(String id, String username, String password) {
        Server server = new Server();
        server.setId(id);
        server.setUsername(username);
        server.setPassword(password);
        Settings settings = new Settings();
        settings.addServer(server);
        return settings;
    }
}
