package io.github.retrytopology.runtime.testing;

import com.rabbitmq.client.ConnectionFactory;
import io.github.retrytopology.runtime.topology.ManagementApi;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.util.Optional;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.rabbitmq.RabbitMQContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The RabbitMQ broker the tests run against, found once per JVM in this order:
 * <ol>
 *   <li>the one named by {@value #AMQP_URI_VARIABLE} and {@value #MANAGEMENT_URI_VARIABLE};
 *   <li>a container started through Testcontainers, if a Docker engine answers;
 *   <li>a local broker at {@code 127.0.0.1:5672}, with its management API at {@code :15672}, as guest;
 *   <li>a {@link LocalNode} of the tests' own, started from the machine's RabbitMQ installation, when the local
 *       broker has no management API or none runs: the tests never enable a plugin of a broker they did not start.
 * </ol>
 * If none is there, the tests fail with a message that says how to provide one: they never skip.
 */
public final class Broker {

    /** An AMQP URI with credentials, such as {@code amqp://guest:guest@rabbit:5672}. */
    public static final String AMQP_URI_VARIABLE = "RETRY_TEST_AMQP_URI";
    /** A management API URI with credentials, such as {@code http://guest:guest@rabbit:15672}. */
    public static final String MANAGEMENT_URI_VARIABLE = "RETRY_TEST_MANAGEMENT_URI";

    static final String IMAGE = "rabbitmq:3.13-management";
    private static final URI LOCAL_AMQP = URI.create("amqp://guest:guest@127.0.0.1:5672");
    private static final URI LOCAL_MANAGEMENT = URI.create("http://guest:guest@127.0.0.1:15672");

    private static Broker shared;
    private static IllegalStateException missing;

    private final URI amqp;
    private final URI management;
    private final String origin;
    private final boolean local;
    private final LocalNode node;

    private Broker(URI amqp, URI management, String origin, boolean local, LocalNode node) {
        this.amqp = amqp;
        this.management = management;
        this.origin = origin;
        this.local = local;
        this.node = node;
    }

    /** The broker of this JVM, found on first use. */
    public static synchronized Broker shared() {
        if (missing != null) {
            throw missing;
        }
        if (shared == null) {
            try {
                shared = find();
            } catch (IllegalStateException e) {
                missing = e;
                throw e;
            }
        }
        return shared;
    }

    private static Broker find() {
        String amqp = System.getenv(AMQP_URI_VARIABLE);
        String management = System.getenv(MANAGEMENT_URI_VARIABLE);
        if (amqp != null || management != null) {
            if (amqp == null || management == null) {
                throw new IllegalStateException("set both " + AMQP_URI_VARIABLE + " and " + MANAGEMENT_URI_VARIABLE
                        + ", or neither");
            }
            return new Broker(URI.create(amqp), URI.create(management), "the environment (" + AMQP_URI_VARIABLE + ")",
                    false, null);
        }
        if (DockerClientFactory.instance().isDockerAvailable()) {
            RabbitMQContainer container = new RabbitMQContainer(DockerImageName.parse(IMAGE));
            container.start();
            URI amqpUri = withCredentials(URI.create(container.getAmqpUrl()), container.getAdminUsername(),
                    container.getAdminPassword());
            URI managementUri = withCredentials(URI.create(container.getHttpUrl()), container.getAdminUsername(),
                    container.getAdminPassword());
            return new Broker(amqpUri, managementUri, "a Testcontainers " + IMAGE + " container", false,
                    null);
        }
        boolean localAmqp = answers(LOCAL_AMQP);
        if (localAmqp && answers(LOCAL_MANAGEMENT)) {
            return new Broker(LOCAL_AMQP, LOCAL_MANAGEMENT, "the local broker at 127.0.0.1:5672", true, null);
        }
        if (LocalNode.available()) {
            System.err.println("[tests] " + (localAmqp ? "The local broker has no management API"
                    : "No broker answers at 127.0.0.1:5672") + "; starting a RabbitMQ node of the tests' own");
            try {
                return LocalNode.start("tests").broker();
            } catch (IOException e) {
                throw new IllegalStateException("Could not start a RabbitMQ node for the tests: " + e.getMessage(), e);
            }
        }
        if (localAmqp) {
            throw new IllegalStateException("A RabbitMQ broker answers at 127.0.0.1:5672 but its management API "
                    + "does not at 127.0.0.1:15672; the tests need it. Enable it with: "
                    + "rabbitmq-plugins enable rabbitmq_management");
        }
        throw new IllegalStateException("""
                No RabbitMQ broker for the tests. Provide one of:
                  - a broker of your own: set %s (such as amqp://guest:guest@host:5672) and %s \
                (such as http://guest:guest@host:15672);
                  - a Docker engine: the tests then start %s through Testcontainers;
                  - a local RabbitMQ at 127.0.0.1:5672, user guest, with the management plugin at :15672: \
                rabbitmq-server -detached && rabbitmq-plugins enable rabbitmq_management"""
                .formatted(AMQP_URI_VARIABLE, MANAGEMENT_URI_VARIABLE, IMAGE));
    }

    /** The broker that a node of the tests' own is. */
    static Broker of(LocalNode node, URI amqp, URI management) {
        return new Broker(amqp, management, "the test node " + node.name(), true, node);
    }

    /** A broker at these URIs, with credentials. */
    static Broker of(URI amqp, URI management, String origin) {
        return new Broker(amqp, management, origin, false, null);
    }

    /** Where the broker came from, for failure messages. */
    public String origin() {
        return origin;
    }

    /** Whether this broker runs on this machine, where {@code rabbitmqctl} reaches it. */
    public boolean isLocal() {
        return local;
    }

    /** The node of the tests' own that this broker is, if it is one; {@code rabbitmqctl} reaches it through it. */
    public Optional<LocalNode> node() {
        return Optional.ofNullable(node);
    }

    /** The management API, as the broker's administrator. */
    public ManagementApi management() {
        return ManagementApi.of(management);
    }

    /** The management API's URI, credentials included. */
    public URI managementUri() {
        return management;
    }

    /** The AMQP URI, credentials included, without a virtual host. */
    public URI amqpUri() {
        return amqp;
    }

    /** The user the tests connect as. */
    public String username() {
        return amqp.getUserInfo().split(":", 2)[0];
    }

    /** A connection factory for a virtual host of this broker. */
    public ConnectionFactory connectionFactory(String vhost) {
        ConnectionFactory factory = new ConnectionFactory();
        try {
            factory.setUri(amqp);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("not an AMQP URI: " + amqp, e);
        }
        factory.setVirtualHost(vhost);
        factory.setNetworkRecoveryInterval(100);
        return factory;
    }

    /** The AMQP URI of a virtual host of this broker, credentials included. */
    public String amqpUri(String vhost) {
        return amqp.toString().replaceAll("/+$", "") + "/" + java.net.URLEncoder.encode(vhost, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The host and port of the AMQP listener. */
    public InetSocketAddress amqpAddress() {
        return new InetSocketAddress(amqp.getHost(), amqp.getPort() < 0 ? 5672 : amqp.getPort());
    }

    private static URI withCredentials(URI uri, String username, String password) {
        return URI.create(uri.getScheme() + "://" + username + ":" + password + "@" + uri.getHost() + ":" + uri.getPort());
    }

    private static boolean answers(URI uri) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 1_000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
