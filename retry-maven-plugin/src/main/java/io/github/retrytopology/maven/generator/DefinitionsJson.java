package io.github.retrytopology.maven.generator;

import io.github.retrytopology.model.topology.Binding;
import io.github.retrytopology.model.topology.Exchange;
import io.github.retrytopology.model.topology.Policy;
import io.github.retrytopology.model.topology.Queue;
import io.github.retrytopology.model.topology.Topology;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The variables of {@code definitions.json.ftl}: the topology as RabbitMQ definitions, in the whole-cluster
 * format (every object names its vhost, and the vhost is declared) or the per-vhost one (no vhost at all). No
 * users, passwords or permissions: those are the operators' business.
 */
final class DefinitionsJson {

    static final String TEMPLATE = "definitions.json.ftl";

    private DefinitionsJson() {
    }

    /**
     * @param cluster whether this is the whole-cluster format
     * @param vhost the virtual host
     * @param exchanges the exchanges
     * @param queues the queues
     * @param bindings the bindings
     * @param policies the policies
     */
    public record Variables(boolean cluster, String vhost, List<Exchange> exchanges, List<QueueJson> queues,
            List<Binding> bindings, List<PolicyJson> policies) {
    }

    /** A queue; its arguments as a list, in key order. */
    public record QueueJson(String name, List<Setting> arguments) {
    }

    /** A policy; its definition as a list, in key order. */
    public record PolicyJson(String name, String pattern, String applyTo, int priority, List<Setting> definition) {
    }

    /** One argument or policy setting; the value is a string or a number. */
    public record Setting(String key, Object value) {
    }

    static GeneratedFile render(Topology topology, Path file, boolean cluster) {
        List<QueueJson> queues = topology.queues().stream()
                .map((Queue queue) -> new QueueJson(queue.name(), settings(queue.arguments())))
                .toList();
        List<PolicyJson> policies = topology.policies().stream()
                .map((Policy policy) -> new PolicyJson(policy.name(), policy.pattern(), policy.applyTo(),
                        policy.priority(), settings(policy.definition())))
                .toList();
        Variables variables = new Variables(cluster, topology.vhost(), topology.exchanges(), queues,
                topology.bindings(), policies);
        return GeneratedFile.of(file, Templates.json(TEMPLATE, variables));
    }

    private static List<Setting> settings(Map<String, Object> map) {
        return map.entrySet().stream().map(entry -> new Setting(entry.getKey(), entry.getValue())).toList();
    }
}
