package io.github.retrytopology.runtime.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Address;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.github.retrytopology.runtime.topology.ManagementApi;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;

/**
 * A RabbitMQ cluster of the tests' own: {@link LocalNode}s that share an Erlang cookie, the second and later
 * joined to the first, for faults that take a node away. Tests reach it as an application would, through every
 * node: an address list for AMQP, and a management API that asks the next node when one is down.
 *
 * <pre>{@code
 * try (PrivateCluster cluster = PrivateCluster.start("cluster", 3, List.of("queue_leader_locator = balanced"))) {
 *     Connection connection = cluster.connect("/", "app");
 *     cluster.leaderOf("/", "orders").kill();
 * }
 * }</pre>
 */
public final class PrivateCluster implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<LocalNode> nodes;

    private PrivateCluster(List<LocalNode> nodes) {
        this.nodes = List.copyOf(nodes);
    }

    /**
     * Starts {@code size} nodes, their names beginning with {@code purpose}, each with these lines added to its
     * {@code rabbitmq.conf}, and clusters them; every node is up and clustered when this returns.
     */
    public static PrivateCluster start(String purpose, int size, List<String> settings) throws IOException {
        if (!LocalNode.available()) {
            throw new IllegalStateException("A test needs a RabbitMQ cluster of its own, to take its nodes away, and "
                    + "there is no RabbitMQ installation to start nodes from: install RabbitMQ, run .ci/test-broker, or "
                    + "set " + Installation.SBIN_VARIABLE + " to the directory of rabbitmq-server");
        }
        String cookie = "retry-cluster-" + UUID.randomUUID();
        List<LocalNode> started = new ArrayList<>();
        ExecutorService starting = Executors.newFixedThreadPool(size);
        try {
            List<Future<LocalNode>> futures = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                futures.add(starting.submit(() -> LocalNode.start(purpose, cookie, settings)));
            }
            IOException failure = null;
            for (Future<LocalNode> future : futures) {
                try {
                    started.add(future.get());
                } catch (Exception e) {
                    Throwable cause = e.getCause() != null ? e.getCause() : e;
                    failure = cause instanceof IOException io ? io : new IOException(cause.getMessage(), cause);
                }
            }
            if (failure != null) {
                throw failure;
            }
            for (LocalNode node : started.subList(1, started.size())) {
                node.joinCluster(started.get(0));
            }
            return new PrivateCluster(started);
        } catch (IOException | RuntimeException e) {
            started.forEach(LocalNode::close);
            throw e;
        } finally {
            starting.shutdownNow();
        }
    }

    /** Its nodes, the first being the one the others joined. */
    public List<LocalNode> nodes() {
        return nodes;
    }

    /** The node of this Erlang name, such as {@code cluster-1a2b3c4d@localhost}. */
    public LocalNode node(String name) {
        return nodes.stream().filter(node -> node.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no node " + name + " in " + nodes));
    }

    /** The node whose AMQP listener has this port. */
    public LocalNode nodeListeningOn(int amqpPort) {
        return nodes.stream().filter(node -> node.amqpPort() == amqpPort).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no node listens on " + amqpPort));
    }

    /** Every node's AMQP listener, as an application lists them for the Java client. */
    public List<Address> addresses() {
        return nodes.stream().map(node -> new Address("127.0.0.1", node.amqpPort())).toList();
    }

    /** Every node's AMQP URI, credentials included, as the command line takes them. */
    public List<URI> amqpUris() {
        return nodes.stream().map(node -> node.broker().amqpUri()).toList();
    }

    /** The management API as its administrator, through the first node that answers. */
    public ManagementApi management() {
        return ManagementApi.of(nodes.stream().map(node -> ManagementApi.withoutCredentials(node.broker().managementUri()))
                .toList(), "guest", "guest", Optional.empty());
    }

    /** A connection to a virtual host through the address list, with automatic recovery onto any node. */
    public Connection connect(String vhost, String name) throws IOException {
        ConnectionFactory factory = nodes.get(0).broker().connectionFactory(vhost);
        factory.setNetworkRecoveryInterval(200);
        try {
            return factory.newConnection(addresses(), name);
        } catch (TimeoutException e) {
            throw new IOException("connecting to the cluster " + nodes + " timed out", e);
        }
    }

    /** The node that leads a quorum queue now, or holds a classic one. */
    public LocalNode leaderOf(String vhost, String queue) throws IOException {
        JsonNode state = JSON.readTree(management().get("api/queues/" + ManagementApi.encode(vhost) + "/"
                + ManagementApi.encode(queue)));
        String leader = state.path("leader").asText(state.path("node").asText());
        return node(leader);
    }

    /** Stops every node and deletes what it kept. */
    @Override
    public void close() {
        nodes.forEach(LocalNode::close);
    }

    @Override
    public String toString() {
        return "cluster " + nodes;
    }
}
