package io.github.retrytopology.runtime.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.retrytopology.model.topology.Binding;
import io.github.retrytopology.model.topology.Exchange;
import io.github.retrytopology.model.topology.Policy;
import io.github.retrytopology.model.topology.Queue;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.topology.ManagementApi;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compares what a broker holds, as its own export of a virtual host shows it, with the topology the model
 * describes: the same queues, exchanges, bindings and policies, each with the same settings, and nothing else.
 *
 * <p>RabbitMQ 4 exports each queue with a {@code type} beside its arguments (and fills in {@code x-queue-type}
 * from the vhost's default where a queue was declared without it); the type must agree with the argument, and is
 * then compared as the argument. RabbitMQ 4.3 leaves out an exchange's {@code internal} when it is false.
 */
public final class BrokerTopology {

    private static final ObjectMapper JSON = new ObjectMapper();

    private BrokerTopology() {
    }

    /** Asserts that the virtual host of the topology holds exactly the topology. */
    public static void assertHolds(ManagementApi management, Topology topology) throws IOException {
        JsonNode exported = JSON.readTree(management.exportDefinitions(topology.vhost()));
        assertThat(elements(exported, "queues")).as("queues").containsExactlyInAnyOrderElementsOf(queues(topology));
        assertThat(elements(exported, "exchanges")).as("exchanges")
                .containsExactlyInAnyOrderElementsOf(exchanges(topology));
        assertThat(elements(exported, "bindings")).as("bindings")
                .containsExactlyInAnyOrderElementsOf(bindings(topology));
        assertThat(elements(exported, "policies")).as("policies")
                .containsExactlyInAnyOrderElementsOf(policies(topology));
    }

    /** Returns whether the virtual host holds at least every queue of the topology, for imports that take time. */
    public static boolean hasEveryQueue(ManagementApi management, Topology topology) throws IOException {
        List<String> names = new ArrayList<>();
        JSON.readTree(management.exportDefinitions(topology.vhost())).path("queues")
                .forEach(queue -> names.add(queue.path("name").asText()));
        return names.containsAll(topology.queues().stream().map(Queue::name).toList());
    }

    /**
     * The objects of one kind, without the vhost field that the export of a single vhost adds to policies, and
     * without the type that RabbitMQ 4 adds to queues once it is checked against the queue's argument.
     */
    private static List<JsonNode> elements(JsonNode exported, String field) {
        List<JsonNode> elements = new ArrayList<>();
        for (JsonNode element : exported.path(field)) {
            ObjectNode copy = ((ObjectNode) element).deepCopy();
            copy.remove("vhost");
            if (field.equals("exchanges")) {
                copy.putIfAbsent("internal", BooleanNode.FALSE);
            }
            JsonNode type = field.equals("queues") ? copy.remove("type") : null;
            if (type != null) {
                assertThat(type.asText()).as("the type of queue %s", copy.path("name").asText())
                        .isEqualTo(copy.path("arguments").path("x-queue-type").asText("classic"));
            }
            elements.add(copy);
        }
        return elements;
    }

    private static List<JsonNode> queues(Topology topology) throws IOException {
        List<JsonNode> queues = new ArrayList<>();
        for (Queue queue : topology.queues()) {
            queues.add(node(ordered("name", queue.name(), "durable", true, "auto_delete", false,
                    "arguments", queue.arguments())));
        }
        return queues;
    }

    private static List<JsonNode> exchanges(Topology topology) throws IOException {
        List<JsonNode> exchanges = new ArrayList<>();
        for (Exchange exchange : topology.exchanges()) {
            exchanges.add(node(ordered("name", exchange.name(), "type", exchange.type(), "durable", exchange.durable(),
                    "auto_delete", false, "internal", false, "arguments", Map.of())));
        }
        return exchanges;
    }

    private static List<JsonNode> bindings(Topology topology) throws IOException {
        List<JsonNode> bindings = new ArrayList<>();
        for (Binding binding : topology.bindings()) {
            bindings.add(node(ordered("source", binding.exchange(), "destination", binding.queue(),
                    "destination_type", "queue", "routing_key", binding.routingKey(), "arguments", Map.of())));
        }
        return bindings;
    }

    private static List<JsonNode> policies(Topology topology) throws IOException {
        List<JsonNode> policies = new ArrayList<>();
        for (Policy policy : topology.policies()) {
            policies.add(node(ordered("name", policy.name(), "pattern", policy.pattern(), "apply-to", policy.applyTo(),
                    "definition", policy.definition(), "priority", policy.priority())));
        }
        return policies;
    }

    /** A JSON tree as the broker's export parses: whole numbers that fit an int are ints. */
    private static JsonNode node(Map<String, Object> value) throws IOException {
        return JSON.readTree(JSON.writeValueAsString(value));
    }

    private static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
