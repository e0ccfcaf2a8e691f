package io.github.retrytopology.maven.generator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.topology.Binding;
import io.github.retrytopology.model.topology.Exchange;
import io.github.retrytopology.model.topology.Policy;
import io.github.retrytopology.model.topology.Queue;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.testing.TestVhost;
import io.github.retrytopology.runtime.topology.ManagementApi;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The generated definitions of every realistic spec, imported into a real RabbitMQ both ways the management API
 * takes them; the broker's own export of the vhost afterwards holds exactly the topology the model describes.
 */
class DefinitionsImportIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest(name = "{0}, {1}")
    @CsvSource({"cdn-purge, cluster", "cdn-purge, vhost", "order-platform, cluster", "order-platform, vhost",
        "shared-routing-key, cluster", "shared-routing-key, vhost"})
    void theBrokerHoldsExactlyWhatTheModelDescribes(String name, String format) throws Exception {
        ManagementApi management = broker.management();
        String vhost = broker.name() + "-" + name + "-" + format;
        RetrySpec original = GoldenFilesTest.spec(name);
        RetrySpec spec = new RetrySpec(original.javaPackage(), vhost, original.exchange(), original.queueSettings(),
                original.services());
        List<GeneratedFile> files = new Generator().render(spec,
                new GenerationRequest(Path.of(name + ".yml"), Path.of("/java"), Path.of("/resources"), "test"));
        try {
            if (format.equals("cluster")) {
                management.importDefinitions(content(files, "definitions.json"));
            } else {
                management.createVhost(vhost);
                management.importDefinitions(vhost, content(files, "definitions.vhost.json"));
            }
            management.grantAll(vhost, broker.broker().username());

            JsonNode exported = JSON.readTree(management.exportDefinitions(vhost));

            Topology topology = spec.topology();
            assertThat(elements(exported, "queues")).containsExactlyInAnyOrderElementsOf(queues(topology));
            assertThat(elements(exported, "exchanges")).containsExactlyInAnyOrderElementsOf(exchanges(topology));
            assertThat(elements(exported, "bindings")).containsExactlyInAnyOrderElementsOf(bindings(topology));
            assertThat(elements(exported, "policies")).containsExactlyInAnyOrderElementsOf(policies(topology));
        } finally {
            management.deleteVhost(vhost);
        }
    }

    private static String content(List<GeneratedFile> files, String fileName) {
        return files.stream().filter(file -> file.path().endsWith(fileName)).findFirst()
                .map(file -> new String(file.content(), StandardCharsets.UTF_8)).orElseThrow();
    }

    /** The objects of one kind, without the vhost field that RabbitMQ's export adds to policies. */
    private static List<JsonNode> elements(JsonNode exported, String field) {
        List<JsonNode> elements = new ArrayList<>();
        for (JsonNode element : (ArrayNode) exported.path(field)) {
            ObjectNode copy = ((ObjectNode) element).deepCopy();
            copy.remove("vhost");
            elements.add(copy);
        }
        return elements;
    }

    private static List<JsonNode> queues(Topology topology) throws Exception {
        List<JsonNode> queues = new ArrayList<>();
        for (Queue queue : topology.queues()) {
            queues.add(node(ordered("name", queue.name(), "durable", true, "auto_delete", false,
                    "arguments", queue.arguments())));
        }
        return queues;
    }

    private static List<JsonNode> exchanges(Topology topology) throws Exception {
        List<JsonNode> exchanges = new ArrayList<>();
        for (Exchange exchange : topology.exchanges()) {
            exchanges.add(node(ordered("name", exchange.name(), "type", exchange.type(), "durable", exchange.durable(),
                    "auto_delete", false, "internal", false, "arguments", Map.of())));
        }
        return exchanges;
    }

    private static List<JsonNode> bindings(Topology topology) throws Exception {
        List<JsonNode> bindings = new ArrayList<>();
        for (Binding binding : topology.bindings()) {
            bindings.add(node(ordered("source", binding.exchange(), "destination", binding.queue(),
                    "destination_type", "queue", "routing_key", binding.routingKey(), "arguments", Map.of())));
        }
        return bindings;
    }

    private static List<JsonNode> policies(Topology topology) throws Exception {
        List<JsonNode> policies = new ArrayList<>();
        for (Policy policy : topology.policies()) {
            policies.add(node(ordered("name", policy.name(), "pattern", policy.pattern(), "apply-to", policy.applyTo(),
                    "definition", policy.definition(), "priority", policy.priority())));
        }
        return policies;
    }

    /** A JSON tree as the broker's export parses: whole numbers that fit an int are ints. */
    private static JsonNode node(Map<String, Object> value) throws Exception {
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
