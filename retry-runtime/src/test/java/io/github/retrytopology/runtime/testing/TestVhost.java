package io.github.retrytopology.runtime.testing;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.topology.Topology;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A virtual host of its own for one test class, created on the {@link Broker} before its tests and deleted
 * with everything in it after them, so that runs never see each other's messages.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final TestVhost broker = new TestVhost();
 * }</pre>
 */
public final class TestVhost implements BeforeAllCallback, AfterAllCallback {

    private final List<Connection> connections = new ArrayList<>();
    private Broker broker;
    private String name;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        broker = Broker.shared();
        name = "test-" + context.getRequiredTestClass().getSimpleName().toLowerCase(Locale.ROOT) + "-"
                + UUID.randomUUID().toString().substring(0, 8);
        broker.management().createVhost(name, broker.username());
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (broker == null) {
            return; // there was no broker to create the vhost on; beforeAll said why
        }
        synchronized (connections) {
            for (Connection connection : connections) {
                if (connection.isOpen()) {
                    connection.abort();
                }
            }
            connections.clear();
        }
        broker.management().deleteVhost(name);
    }

    /**
     * Deletes the virtual host with everything in it and creates it again, empty, for a test that needs to
     * start from nothing.
     */
    public void reset() throws IOException {
        synchronized (connections) {
            connections.forEach(connection -> {
                if (connection.isOpen()) {
                    connection.abort();
                }
            });
            connections.clear();
        }
        TestManagement management = broker.management();
        management.deleteVhost(name);
        management.createVhost(name, broker.username());
    }

    /** The same spec, in this virtual host. */
    public RetrySpec inThisVhost(RetrySpec spec) {
        return spec.inVhost(name);
    }

    /** The virtual host's name. */
    public String name() {
        return name;
    }

    public Broker broker() {
        return broker;
    }

    public TestManagement management() {
        return broker.management();
    }

    /** A connection factory for this virtual host, with automatic recovery on. */
    public ConnectionFactory connectionFactory() {
        return broker.connectionFactory(name);
    }

    /** A new connection to this virtual host, closed after the test class. */
    public Connection connect(String clientName) throws IOException {
        try {
            Connection connection = connectionFactory().newConnection(clientName);
            synchronized (connections) {
                connections.add(connection);
            }
            return connection;
        } catch (TimeoutException e) {
            throw new IOException("connecting to " + broker.origin() + " timed out", e);
        }
    }

    /**
     * Creates a spec's topology in this virtual host, whatever virtual host the spec names, as importing its
     * definitions does.
     */
    public Topology declare(RetrySpec spec) throws IOException {
        Topology topology = Topology.of(spec.inVhost(name));
        management().importTopology(topology);
        return topology;
    }

    /** Deletes every queue of a topology, so that a test can start from nothing. */
    public void deleteQueues(Topology topology) throws IOException {
        try (Connection connection = connectionFactory().newConnection("delete")) {
            Channel channel = connection.createChannel();
            for (var queue : topology.queues()) {
                channel.queueDelete(queue.name());
            }
        } catch (TimeoutException e) {
            throw new IOException("connecting to " + broker.origin() + " timed out", e);
        }
    }
}
