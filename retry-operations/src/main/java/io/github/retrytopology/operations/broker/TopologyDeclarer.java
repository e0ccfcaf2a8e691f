package io.github.retrytopology.operations.broker;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.retrytopology.model.topology.Binding;
import io.github.retrytopology.model.topology.Exchange;
import io.github.retrytopology.model.topology.Policy;
import io.github.retrytopology.model.topology.Queue;
import io.github.retrytopology.model.topology.Topology;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/**
 * Declares a spec's topology at start-up, for development and tests: the same exchanges, queues, bindings and
 * policies that importing the generated {@code definitions.json} creates. Exchanges, queues and bindings go
 * over AMQP, on a connection to the topology's virtual host; policies need the management API, which AMQP
 * cannot reach.
 *
 * <p>Like an import, declaring never changes a queue that exists with other arguments: RabbitMQ refuses such a
 * declaration, and this refusal is reported as an {@link IOException}.
 */
public final class TopologyDeclarer {

    private final Connection connection;
    private final Optional<ManagementApi> management;

    private TopologyDeclarer(Connection connection, Optional<ManagementApi> management) {
        this.connection = connection;
        this.management = management;
    }

    /** A declarer for topologies that keep their queue settings in arguments, with no policy to set. */
    public static TopologyDeclarer over(Connection connection) {
        return new TopologyDeclarer(connection, Optional.empty());
    }

    /** A declarer that sets policies through the management API. */
    public static TopologyDeclarer over(Connection connection, ManagementApi management) {
        return new TopologyDeclarer(connection, Optional.of(management));
    }

    /**
     * Declares every object of the topology. Policies come first, so that no queue ever holds a message
     * without its TTL and dead-letter settings.
     *
     * @throws IllegalStateException if the topology has policies and this declarer has no management API
     */
    public void declare(Topology topology) throws IOException {
        if (!topology.policies().isEmpty()) {
            ManagementApi api = management.orElseThrow(() -> new IllegalStateException("this topology keeps its queue "
                    + "settings in policies, which only the management API can set: give the declarer a "
                    + "ManagementApi, or set 'queueSettings: arguments' in the spec"));
            for (Policy policy : topology.policies()) {
                api.putPolicy(topology.vhost(), policy);
            }
        }
        Channel channel = connection.createChannel();
        try {
            for (Exchange exchange : topology.exchanges()) {
                channel.exchangeDeclare(exchange.name(), exchange.type(), exchange.durable(), false, false, Map.of());
            }
            for (Queue queue : topology.queues()) {
                channel.queueDeclare(queue.name(), true, false, false, queue.arguments());
            }
            for (Binding binding : topology.bindings()) {
                channel.queueBind(binding.queue(), binding.exchange(), binding.routingKey());
            }
        } finally {
            if (channel.isOpen()) {
                try {
                    channel.close();
                } catch (TimeoutException e) {
                    throw new IOException("the channel did not close in time", e);
                }
            }
        }
    }
}
