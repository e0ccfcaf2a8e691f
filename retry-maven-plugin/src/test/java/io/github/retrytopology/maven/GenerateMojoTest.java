package io.github.retrytopology.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import org.apache.maven.api.plugin.testing.Basedir;
import org.apache.maven.api.plugin.testing.InjectMojo;
import org.apache.maven.api.plugin.testing.MojoParameter;
import org.apache.maven.api.plugin.testing.MojoTest;
import org.apache.maven.model.Resource;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;

/** The mojos, configured by Maven from a project's POM. */
@MojoTest
class GenerateMojoTest {

    @Test
    @Basedir("/projects/valid")
    @InjectMojo(goal = "generate")
    void generatesSourcesAndResourcesAndRegistersBoth(GenerateMojo mojo) throws Exception {
        asInMaven(mojo);
        mojo.execute();

        Path java = mojo.outputDirectory.toPath();
        Path resources = mojo.resourceOutputDirectory.toPath();
        assertThat(java).isEqualTo(Path.of(mojo.project.getBasedir().getPath(), "target", "generated-sources", "retry"));
        assertThat(java.resolve("com/acme/shop/RetryTopology.java")).isRegularFile();
        assertThat(java.resolve("com/acme/shop/InvoicingHandler.java")).isRegularFile();
        assertThat(resources.resolve("com/acme/shop/definitions.json")).isRegularFile();
        assertThat(mojo.project.getCompileSourceRoots()).contains(java.toString());
        assertThat(mojo.project.getResources()).extracting(Resource::getDirectory).containsOnlyOnce(resources.toString());
    }

    @Test
    @Basedir("/projects/valid")
    @InjectMojo(goal = "generate")
    void registersTheDirectoriesOnceWhenRunTwice(GenerateMojo mojo) throws Exception {
        asInMaven(mojo);
        mojo.execute();
        mojo.execute();

        assertThat(mojo.project.getResources()).extracting(Resource::getDirectory)
                .containsOnlyOnce(mojo.resourceOutputDirectory.toPath().toString());
    }

    @Test
    @Basedir("/projects/valid")
    @InjectMojo(goal = "generate")
    @MojoParameter(name = "skip", value = "true")
    @MojoParameter(name = "outputDirectory", value = "${project.build.directory}/skipped-java")
    void skipsWhenAskedTo(GenerateMojo mojo) throws Exception {
        mojo.execute();

        assertThat(mojo.outputDirectory).doesNotExist();
        assertThat(mojo.project.getCompileSourceRoots()).doesNotContain(mojo.outputDirectory.getPath());
    }

    @Test
    @Basedir("/projects/invalid")
    @InjectMojo(goal = "generate")
    void failsTheBuildWithEveryProblemOfAnInvalidSpecAndWritesNothing(GenerateMojo mojo) {
        String spec = new File(mojo.project.getBasedir(), "retry.yml").toPath().toAbsolutePath().normalize().toString();

        assertThatThrownBy(mojo::execute)
                .isInstanceOf(MojoFailureException.class)
                .hasMessageContaining(spec + ":4:25 [bad-max-attempts] defaults.maxAttempts: maxAttempts is 0")
                .hasMessageContaining(spec + ":4:37 [bad-duration] defaults.delays[0]: '10' has no unit")
                .hasMessageContaining(spec + ":8:5 [unknown-key] services.invoicing.maxAttemps: 'maxAttemps' is not a "
                        + "service key; did you mean 'maxAttempts'?");
        assertThat(mojo.outputDirectory).doesNotExist();
        assertThat(mojo.resourceOutputDirectory).doesNotExist();
    }

    @Test
    @Basedir("/projects/valid")
    @InjectMojo(goal = "generate")
    @MojoParameter(name = "spec", value = "${project.basedir}/missing.yml")
    void saysWhereTheMissingSpecWasLookedFor(GenerateMojo mojo) {
        assertThatThrownBy(mojo::execute)
                .isInstanceOf(MojoFailureException.class)
                .hasMessageContaining("There is no spec at ")
                .hasMessageContaining("missing.yml; write one, or set retry.spec");
    }

    /** Maven's own project has a mutable list of resources; the harness's stand-in does not. */
    private static void asInMaven(GenerateMojo mojo) {
        mojo.project.getBuild().setResources(new ArrayList<>(mojo.project.getBuild().getResources()));
    }

    @Test
    @Basedir("/projects/valid")
    @InjectMojo(goal = "validate")
    void validatesAValidSpec(ValidateMojo mojo) throws Exception {
        mojo.execute();
    }

    @Test
    @Basedir("/projects/invalid")
    @InjectMojo(goal = "validate")
    void validationFailsWithEveryProblem(ValidateMojo mojo) {
        assertThatThrownBy(mojo::execute)
                .isInstanceOf(MojoFailureException.class)
                .hasMessageContaining("(3 problems)")
                .hasMessageContaining("[bad-max-attempts]")
                .hasMessageContaining("[bad-duration]")
                .hasMessageContaining("[unknown-key]");
    }
}
