package io.github.retrytopology.runtime.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.retrytopology.model.topology.Queue;
import io.github.retrytopology.model.topology.Topology;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
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
    public static void assertHolds(TestManagement management, Topology topology) throws IOException {
        JsonNode exported = JSON.readTree(management.exportDefinitions(topology.vhost()));
        for (String field : List.of("queues", "exchanges", "bindings", "policies")) {
            assertThat(elements(exported, field)).as(field).containsExactlyInAnyOrderElementsOf(expected(topology, field));
        }
    }

    /** Returns whether the virtual host holds at least every queue of the topology, for imports that take time. */
    public static boolean hasEveryQueue(TestManagement management, Topology topology) throws IOException {
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

    /** The objects of one kind that the topology describes, as JSON trees like the export's. */
    private static List<JsonNode> expected(Topology topology, String field) {
        List<JsonNode> expected = new ArrayList<>();
        for (Map<String, Object> element : TestManagement.definitions(topology).get(field)) {
            // parsed back from text, as the export is, so that whole numbers that fit an int are ints
            try {
                expected.add(JSON.readTree(JSON.writeValueAsString(element)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return expected;
    }
}
