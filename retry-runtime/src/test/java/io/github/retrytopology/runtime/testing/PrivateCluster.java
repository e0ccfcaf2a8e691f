package io.github.retrytopology.runtime.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Address;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.github.retrytopology.model.topology.BrokerVersion;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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
    /** The first version whose quorum queues' dead-letter workers do not stall after a node loss. */
    private static final BrokerVersion DEAD_LETTER_STALL_FIXED = new BrokerVersion(3, 12, 5);
    /**
     * How long a dead-letter worker waits for a rejected publish before it tries again, on versions before
     * {@link #DEAD_LETTER_STALL_FIXED}: the remedy docs/clusters.md gives an operator, at a value that keeps a stall
     * within the cluster tests' bounds. The broker's default is 180 s.
     */
    static final int DEAD_LETTER_CONFIRM_TIMEOUT_MS = 2_000;

    private final List<LocalNode> nodes;
    private final List<String> remedies;

    private PrivateCluster(List<LocalNode> nodes, List<String> remedies) {
        this.nodes = List.copyOf(nodes);
        this.remedies = List.copyOf(remedies);
    }

    /**
     * Starts {@code size} nodes, their names beginning with {@code purpose}, each with these lines added to its
     * {@code rabbitmq.conf}, and clusters them; every node is up and clustered when this returns. On RabbitMQ before
     * 3.12.5, whose quorum queues' dead-letter workers can stall for minutes after a node loss, each node also gets
     * the remedy docs/clusters.md gives operators; {@link #remedies()} says so.
     */
    public static PrivateCluster start(String purpose, int size, List<String> settings) throws IOException {
        if (!LocalNode.available()) {
            throw new IllegalStateException("A test needs a RabbitMQ cluster of its own, to take its nodes away, and "
                    + "there is no RabbitMQ installation to start nodes from: install RabbitMQ, run .ci/test-broker, or "
                    + "set " + Installation.SBIN_VARIABLE + " to the directory of rabbitmq-server");
        }
        String cookie = "retry-cluster-" + UUID.randomUUID();
        BrokerVersion version = Installation.find().orElseThrow().version();
        List<String> remedies = new ArrayList<>();
        List<String> rabbitEnvironment = new ArrayList<>();
        if (version.compareTo(DEAD_LETTER_STALL_FIXED) < 0) {
            rabbitEnvironment.add("{dead_letter_worker_publisher_confirm_timeout, " + DEAD_LETTER_CONFIRM_TIMEOUT_MS + "}");
            remedies.add("RabbitMQ " + version + " predates " + DEAD_LETTER_STALL_FIXED + ": every node has "
                    + "dead_letter_worker_publisher_confirm_timeout at " + DEAD_LETTER_CONFIRM_TIMEOUT_MS + " ms "
                    + "(advanced.config), docs/clusters.md's remedy for retries that stall after a node loss");
        }
        List<LocalNode> started = new ArrayList<>();
        ExecutorService starting = Executors.newFixedThreadPool(size);
        try {
            List<Future<LocalNode>> futures = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                futures.add(starting.submit(() -> LocalNode.start(purpose, cookie, settings, rabbitEnvironment)));
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
            return new PrivateCluster(started, remedies);
        } catch (IOException | RuntimeException e) {
            started.forEach(LocalNode::close);
            throw e;
        } finally {
            starting.shutdownNow();
        }
    }

    /** What the cluster was given beyond the settings asked for, and why; empty if nothing. */
    public List<String> remedies() {
        return remedies;
    }

    /** The RabbitMQ version its nodes run. */
    public BrokerVersion version() throws IOException {
        return nodes.get(0).installation().version();
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
    public TestManagement management() {
        return TestManagement.of(nodes.stream().map(node -> node.broker().managementUri()).toList());
    }

    /**
     * Creates a virtual host for the user and waits until every node runs it: a node that came back a moment ago
     * may not have started it yet, and refuses a queue declared on it meanwhile.
     */
    public void createVhost(String vhost, String user) throws IOException {
        TestManagement management = management();
        management.createVhost(vhost, user);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!runsEverywhere(management, vhost)) {
            if (System.nanoTime() > deadline) {
                throw new IOException("virtual host " + vhost + " did not start on every node of " + this);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
    }

    private boolean runsEverywhere(TestManagement management, String vhost) throws IOException {
        JsonNode state = JSON.readTree(management.get("api/vhosts/" + TestManagement.encode(vhost))).path("cluster_state");
        return nodes.stream().allMatch(node -> state.path(node.name()).asText().equals("running"));
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
        JsonNode state = JSON.readTree(management().get("api/queues/" + TestManagement.encode(vhost) + "/"
                + TestManagement.encode(queue)));
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
