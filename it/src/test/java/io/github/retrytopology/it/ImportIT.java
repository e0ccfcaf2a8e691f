package io.github.retrytopology.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.retrytopology.it.scenarios.RetryTopology;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.testing.BrokerTopology;
import io.github.retrytopology.runtime.testing.NodeControl;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestManagement;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.io.IOException;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The definitions the plugin generated in this build, imported the ways operators import them; afterwards the
 * broker holds exactly the topology the model describes.
 */
class ImportIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void importedPerVhostThroughTheManagementApi() throws Exception {
        String vhost = broker.name() + "-per-vhost";
        TestManagement management = broker.management();
        try {
            management.createVhost(vhost, broker.broker().username());
            management.importDefinitions(vhost, Scenarios.generated(RetryTopology.class, RetryTopology.VHOST_DEFINITIONS));

            BrokerTopology.assertHolds(management, Topology.of(RetryTopology.SPEC.inVhost(vhost)));
        } finally {
            management.deleteVhost(vhost);
        }
    }

    @Test
    void importedWholeThroughTheManagementApi() throws Exception {
        String vhost = broker.name() + "-whole";
        TestManagement management = broker.management();
        try {
            management.importDefinitions(inVhost(vhost));

            BrokerTopology.assertHolds(management, Topology.of(RetryTopology.SPEC.inVhost(vhost)));
        } finally {
            management.deleteVhost(vhost);
        }
    }

    @Test
    void importedWithRabbitmqctl() throws Exception {
        Optional<NodeControl> control = broker.broker().control();
        assumeTrue(control.isPresent(),
                "rabbitmqctl reaches only a broker on this machine; the management API imports are tested anyway");
        String vhost = broker.name() + "-rabbitmqctl";
        TestManagement management = broker.management();
        Topology topology = Topology.of(RetryTopology.SPEC.inVhost(vhost));
        try {
            control.get().ctl("import_definitions", control.get().share("definitions.json", inVhost(vhost)));

            await().atMost(Patience.WAIT).until(() -> BrokerTopology.hasEveryQueue(management, topology));
            BrokerTopology.assertHolds(management, topology);
        } finally {
            management.deleteVhost(vhost);
        }
    }

    /**
     * The generated whole-cluster definitions, with every vhost field set to {@code vhost}: the test imports into
     * a vhost of its own, where an operator imports the file as it is.
     */
    private static String inVhost(String vhost) throws IOException {
        JsonNode definitions = JSON.readTree(Scenarios.generated(RetryTopology.class, RetryTopology.DEFINITIONS));
        assertThat(definitions.path("vhosts")).hasSize(1);
        ((ObjectNode) definitions.path("vhosts").get(0)).put("name", vhost);
        for (String kind : new String[] {"exchanges", "queues", "bindings", "policies"}) {
            definitions.path(kind).forEach(element -> ((ObjectNode) element).put("vhost", vhost));
        }
        return JSON.writeValueAsString(definitions);
    }
}
