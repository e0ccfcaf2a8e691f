package io.github.retrytopology.maven.generator;

import io.github.retrytopology.model.Names;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.topology.Binding;
import io.github.retrytopology.model.topology.Exchange;
import io.github.retrytopology.model.topology.KubernetesNames;
import io.github.retrytopology.model.topology.Policy;
import io.github.retrytopology.model.topology.Queue;
import io.github.retrytopology.model.topology.QueueSetting;
import io.github.retrytopology.model.topology.Topology;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The variables of {@code kubernetes.yaml.ftl}: the topology as the RabbitMQ messaging-topology-operator's custom
 * resources, in one multi-document YAML file. Every object is the one {@code definitions.json} has, from the same
 * {@link Topology}, named by {@link KubernetesNames}; the queue's type moves from its arguments to the Queue's
 * {@code type}, where the operator takes it.
 */
final class KubernetesResources {

    static final String TEMPLATE = "kubernetes.yaml.ftl";

    /** The API group and version of every resource written here, as the operator defines them (1.20). */
    static final String API_VERSION = "rabbitmq.com/v1beta1";

    /**
     * The only exchange the consumers publish to: the default exchange, as RabbitMQ names it in permissions.
     * They send a retry to its tier queue, and a message to its parking lot, through it.
     */
    static final String DEFAULT_EXCHANGE_PERMISSION = "^amq\\.default$";

    /** A permission regular expression that matches no name: the consumers declare nothing. */
    static final String NOTHING = "^$";

    private KubernetesResources() {
    }

    /**
     * @param source the spec file's name, on one line
     * @param generator the generator's name
     * @param apiVersion the resources' API version
     * @param namespace the namespace, if any: a list of none or one
     * @param labels the labels of every resource
     * @param cluster the RabbitmqCluster, as every resource refers to it
     * @param vhosts the Vhost resource, if asked for
     * @param exchanges the Exchange resources
     * @param queues the Queue resources
     * @param policies the Policy resources
     * @param bindings the Binding resources
     * @param permissions the Permission resource, if asked for
     */
    public record Variables(String source, String generator, String apiVersion, List<String> namespace,
            List<Label> labels, Cluster cluster, List<VhostResource> vhosts, List<ExchangeResource> exchanges,
            List<QueueResource> queues, List<PolicyResource> policies, List<BindingResource> bindings,
            List<PermissionResource> permissions) {
    }

    /** A label of every resource. */
    public record Label(String key, String value) {
    }

    /**
     * The {@code rabbitmqClusterReference}: by the cluster's name, with its namespace if any, or by a secret.
     *
     * @param bySecret whether a secret names the cluster
     * @param name the cluster's name, or the secret's
     * @param namespace the cluster's namespace: a list of none or one
     */
    public record Cluster(boolean bySecret, String name, List<String> namespace) {
    }

    /** A Vhost resource. */
    public record VhostResource(String resource, String name, String deletionPolicy) {
    }

    /** An Exchange resource. */
    public record ExchangeResource(String resource, String name, String vhost, String type, boolean durable) {
    }

    /** A Queue resource; its arguments, without its type, in key order. */
    public record QueueResource(String resource, String name, String vhost, String type, String deletionPolicy,
            List<DefinitionsJson.Setting> arguments) {
    }

    /** A Policy resource; its definition in key order. */
    public record PolicyResource(String resource, String name, String vhost, String pattern, String applyTo,
            int priority, List<DefinitionsJson.Setting> definition) {
    }

    /** A Binding resource of a queue. */
    public record BindingResource(String resource, String vhost, String source, String destination, String routingKey) {
    }

    /** A Permission resource of the consumers' user. */
    public record PermissionResource(String resource, String user, String vhost, String configure, String write,
            String read) {
    }

    static GeneratedFile render(RetrySpec spec, Topology topology, KubernetesOutput output, Path file,
            String generator, String sourceName) {
        String prefix = output.namePrefix();
        String vhost = topology.vhost();
        String type = QueueSetting.QUEUE_TYPE.argument();
        List<QueueResource> queues = topology.queues().stream()
                .map((Queue queue) -> new QueueResource(prefix + KubernetesNames.queue(queue), queue.name(), vhost,
                        (String) queue.arguments().get(type), output.deletionPolicy(),
                        settings(queue.arguments().entrySet().stream().filter(entry -> !entry.getKey().equals(type))
                                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)))))
                .toList();
        List<PolicyResource> policies = topology.policies().stream()
                .map((Policy policy) -> new PolicyResource(prefix + KubernetesNames.policy(policy), policy.name(), vhost,
                        policy.pattern(), policy.applyTo(), policy.priority(), settings(policy.definition())))
                .toList();
        List<ExchangeResource> exchanges = topology.exchanges().stream()
                .map((Exchange exchange) -> new ExchangeResource(prefix + KubernetesNames.exchange(exchange),
                        exchange.name(), vhost, exchange.type(), exchange.durable()))
                .toList();
        List<BindingResource> bindings = topology.bindings().stream()
                .map((Binding binding) -> new BindingResource(prefix + KubernetesNames.binding(binding), vhost,
                        binding.exchange(), binding.queue(), binding.routingKey()))
                .toList();
        List<VhostResource> vhosts = output.vhost()
                ? List.of(new VhostResource(prefix + KubernetesNames.of(vhostToDeclare(vhost)), vhost,
                        output.deletionPolicy()))
                : List.of();
        String read = spec.services().stream().map(Service::queue).sorted().map(Names::exactPattern)
                .collect(Collectors.joining("|"));
        List<PermissionResource> permissions = output.user()
                .map(user -> List.of(new PermissionResource(prefix + KubernetesNames.of(user), user, vhost, NOTHING,
                        DEFAULT_EXCHANGE_PERMISSION, read)))
                .orElse(List.of());
        KubernetesOutput.ClusterReference reference = output.cluster();
        Cluster cluster = reference.connectionSecret()
                .map(secret -> new Cluster(true, secret, List.of()))
                .orElseGet(() -> new Cluster(false, reference.name().orElseThrow(), list(reference.namespace())));
        List<Label> labels = output.labels().entrySet().stream()
                .map(label -> new Label(label.getKey(), label.getValue()))
                .toList();
        Variables variables = new Variables(sourceName.replaceAll("[\\r\\n]+", " "), generator, API_VERSION,
                list(output.namespace()), labels, cluster, vhosts, exchanges, queues, policies, bindings, permissions);
        return GeneratedFile.of(file, Templates.json(TEMPLATE, variables));
    }

    /** The virtual host a Vhost resource may declare: not {@code /}, which deleting the resource would delete. */
    private static String vhostToDeclare(String vhost) {
        if (vhost.equals("/")) {
            throw new GenerationException(KubernetesOutput.VHOST + " asks for a Vhost resource, but the spec's virtual "
                    + "host is '/', which every RabbitMQ cluster has and which deleting the resource would delete; "
                    + "leave " + KubernetesOutput.VHOST + " out, or give the spec a virtual host of its own");
        }
        return vhost;
    }

    private static List<DefinitionsJson.Setting> settings(Map<String, Object> map) {
        return new TreeMap<>(map).entrySet().stream()
                .map(entry -> new DefinitionsJson.Setting(entry.getKey(), entry.getValue()))
                .toList();
    }

    private static List<String> list(Optional<String> value) {
        return value.map(List::of).orElse(List.of());
    }
}
