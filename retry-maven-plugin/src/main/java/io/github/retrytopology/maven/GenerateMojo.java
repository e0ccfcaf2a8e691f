package io.github.retrytopology.maven;

import io.github.retrytopology.maven.generator.GenerationException;
import io.github.retrytopology.maven.generator.GenerationRequest;
import io.github.retrytopology.maven.generator.GenerationResult;
import io.github.retrytopology.maven.generator.Generator;
import io.github.retrytopology.maven.generator.KubernetesOutput;
import java.io.File;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.maven.model.Resource;
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
 * (added as a resource, so they ship in the jar beside the generated classes), and when asked the
 * messaging-topology-operator's resources. Does nothing when neither the spec, this configuration nor the plugin
 * changed since the last run.
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

    /**
     * Whether to also write {@code kubernetes.yaml}, the RabbitMQ messaging-topology-operator's resources (Queue,
     * Exchange, Binding, Policy; Vhost and Permission when asked), beside the definitions.
     */
    @Parameter(property = "retry.kubernetes", defaultValue = "false")
    boolean kubernetes;

    /** The name of the RabbitmqCluster the resources are declared in; or set {@code kubernetesConnectionSecret}. */
    @Parameter(property = "retry.kubernetes.cluster")
    String kubernetesCluster;

    /** The RabbitmqCluster's namespace, if it is not the resources' own. */
    @Parameter(property = "retry.kubernetes.clusterNamespace")
    String kubernetesClusterNamespace;

    /** A secret holding the management API's {@code uri}, {@code username} and {@code password}, instead of a cluster. */
    @Parameter(property = "retry.kubernetes.connectionSecret")
    String kubernetesConnectionSecret;

    /** Put before every resource's name, such as {@code orders-}. */
    @Parameter(property = "retry.kubernetes.namePrefix", defaultValue = "")
    String kubernetesNamePrefix;

    /** The resources' namespace; none, for the one {@code kubectl} or a kustomization gives. */
    @Parameter(property = "retry.kubernetes.namespace")
    String kubernetesNamespace;

    /**
     * The labels of every resource, each as {@code <property><name>app.kubernetes.io/part-of</name><value>shop</value>
     * </property>}: a label key's {@code /} cannot name an XML element.
     */
    @Parameter
    Properties kubernetesLabels;

    /** What deleting a Queue (or Vhost) resource does to the broker's queue: {@code retain} keeps it and its messages. */
    @Parameter(property = "retry.kubernetes.deletionPolicy", defaultValue = "retain")
    String kubernetesDeletionPolicy;

    /** Whether to write a Vhost resource for the spec's virtual host, which must not be {@code /}. */
    @Parameter(property = "retry.kubernetes.vhost", defaultValue = "false")
    boolean kubernetesVhost;

    /** The user the consumers connect as, who gets a Permission resource: consume their queues, publish retries. */
    @Parameter(property = "retry.kubernetes.user")
    String kubernetesUser;

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    @Parameter(defaultValue = "${plugin}", readonly = true, required = true)
    PluginDescriptor plugin;

    @Override
    String activity() {
        return "retry topology generation";
    }

    @Override
    void run() throws IOException, MojoExecutionException, MojoFailureException {
        GenerationRequest request = new GenerationRequest(spec.toPath(), outputDirectory.toPath(),
                resourceOutputDirectory.toPath(), plugin.getVersion(), kubernetesOutput());
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

    private Optional<KubernetesOutput> kubernetesOutput() throws MojoFailureException {
        if (!kubernetes) {
            return Optional.empty();
        }
        try {
            return Optional.of(new KubernetesOutput(new KubernetesOutput.ClusterReference(given(kubernetesCluster),
                    given(kubernetesClusterNamespace), given(kubernetesConnectionSecret)),
                    kubernetesNamePrefix == null ? "" : kubernetesNamePrefix, given(kubernetesNamespace),
                    kubernetesLabels == null ? Map.of() : labels(), kubernetesDeletionPolicy, kubernetesVhost,
                    given(kubernetesUser)));
        } catch (IllegalArgumentException e) {
            throw new MojoFailureException(e.getMessage(), e);
        }
    }

    /** The labels, an empty value given as nothing. */
    private Map<String, String> labels() {
        Map<String, String> labels = new TreeMap<>();
        kubernetesLabels.stringPropertyNames().forEach(key -> labels.put(key, kubernetesLabels.getProperty(key, "")));
        return labels;
    }

    private static Optional<String> given(String value) {
        return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
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
