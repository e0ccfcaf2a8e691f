package io.github.retrytopology.operations.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Connection;
import io.github.retrytopology.model.QueueSettings;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Declaring at start-up creates on the broker what the model describes. */
class TopologyDeclarerIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void createsEveryExchangeQueueBindingAndPolicy() throws Exception {
        RetrySpec spec = Specs.load(Path.of("../retry-runtime/src/test/resources/specs/fast-retries.yml"));

        Topology topology = Topology.of(spec.inVhost(broker.name()));
        try (Connection connection = broker.connectionFactory().newConnection("declare")) {
            TopologyDeclarer.over(connection, ManagementApi.of(broker.broker().managementUri())).declare(topology);
        }

        JsonNode exported = JSON.readTree(broker.management().exportDefinitions(broker.name()));
        assertThat(names(exported.path("queues"))).containsExactlyInAnyOrderElementsOf(
                topology.queues().stream().map(queue -> queue.name()).toList());
        assertThat(names(exported.path("policies"))).containsExactlyInAnyOrderElementsOf(
                topology.policies().stream().map(policy -> policy.name()).toList());
        assertThat(names(exported.path("exchanges"))).containsExactly("test.events");
        assertThat(exported.path("bindings")).hasSize(topology.bindings().size());
        JsonNode tierPolicy = find(exported.path("policies"), "orders.retry.2");
        assertThat(tierPolicy.path("pattern").asText()).isEqualTo("^orders\\.retry\\.2$");
        assertThat(tierPolicy.path("apply-to").asText()).isEqualTo("queues");
        assertThat(JSON.convertValue(tierPolicy.path("definition"), Map.class)).isEqualTo(Map.of(
                "message-ttl", 400, "dead-letter-exchange", "", "dead-letter-routing-key", "orders",
                "dead-letter-strategy", "at-least-once", "overflow", "reject-publish"));
        assertThat(find(exported.path("queues"), "orders.retry.2").path("arguments").path("x-queue-type").asText())
                .isEqualTo("quorum");
    }

    @Test
    void putsEverySettingInArgumentsWhenTheSpecSaysSo() throws Exception {
        RetrySpec spec = Specs.load(Path.of("../retry-runtime/src/test/resources/specs/fast-retries.yml"));
        RetrySpec withArguments = new RetrySpec(spec.javaPackage(), spec.vhost(), "arguments.events",
                QueueSettings.ARGUMENTS, List.of(new io.github.retrytopology.model.Service("plain",
                        spec.service("orders").routes(), spec.service("orders").retryPolicy(),
                        io.github.retrytopology.model.QueueType.CLASSIC)));

        Topology topology = Topology.of(withArguments.inVhost(broker.name()));
        try (Connection connection = broker.connectionFactory().newConnection("declare")) {
            TopologyDeclarer.over(connection).declare(topology);
        }

        JsonNode tier = JSON.readTree(broker.management().get("api/queues/" + broker.name() + "/plain.retry.1"));
        assertThat(JSON.convertValue(tier.path("arguments"), Map.class)).isEqualTo(Map.of(
                "x-queue-type", "classic", "x-message-ttl", 200, "x-dead-letter-exchange", "",
                "x-dead-letter-routing-key", "plain"));
    }

    @Test
    void refusesPoliciesWithoutTheManagementApi() throws IOException, Exception {
        RetrySpec spec = Specs.load(Path.of("../retry-runtime/src/test/resources/specs/fast-retries.yml"));

        try (Connection connection = broker.connectionFactory().newConnection("declare")) {
            assertThatThrownBy(() -> TopologyDeclarer.over(connection).declare(Topology.of(spec.inVhost(broker.name()))))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("only the management API can set");
        }
    }

    private static JsonNode find(JsonNode array, String name) {
        for (JsonNode node : array) {
            if (node.path("name").asText().equals(name)) {
                return node;
            }
        }
        throw new AssertionError("no " + name + " in " + array);
    }

    private static List<String> names(JsonNode array) {
        List<String> names = new ArrayList<>();
        array.forEach(node -> names.add(node.path("name").asText()));
        return names;
    }
}
