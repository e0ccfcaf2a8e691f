package io.github.retrytopology.spring;

import com.rabbitmq.client.Connection;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.operations.broker.ManagementApi;
import io.github.retrytopology.operations.broker.TopologyDeclarer;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import org.springframework.boot.amqp.autoconfigure.RabbitConnectionDetails;

/**
 * Declares the specs' topologies at start-up ({@code retry.declare-topology}), in the virtual host the consumers
 * connect to, with retry-operations' declarer: over AMQP, and policies through the management API. Loaded only
 * when that property is on, so that retry-operations stays optional.
 */
final class TopologyDeclaration {

    /** The class whose presence says that retry-operations is on the class path. */
    static final String DECLARER = "io.github.retrytopology.operations.broker.TopologyDeclarer";

    private TopologyDeclaration() {
    }

    static void declare(List<RetrySpec> specs, Connection connection, RetryProperties.Management management,
            RabbitConnectionDetails details, String vhost) throws IOException {
        for (RetrySpec spec : specs) {
            Topology topology = Topology.of(spec.inVhost(vhost));
            TopologyDeclarer declarer;
            if (topology.policies().isEmpty()) {
                declarer = TopologyDeclarer.over(connection);
            } else {
                URI url = management.getUrl();
                if (url == null) {
                    throw new RetryConfigurationException(List.of("retry.declare-topology is on, and the queues of "
                            + spec.exchange() + " keep their settings in policies, which only the management API "
                            + "sets; retry.management.url is not set"), "Set retry.management.url, such as "
                            + "http://localhost:15672, or set 'queueSettings: arguments' in retry.yml.");
                }
                ManagementApi api = url.getRawUserInfo() != null ? ManagementApi.of(url)
                        : ManagementApi.of(url, details.getUsername(), details.getPassword());
                declarer = TopologyDeclarer.over(connection, api);
            }
            declarer.declare(topology);
        }
    }
}
