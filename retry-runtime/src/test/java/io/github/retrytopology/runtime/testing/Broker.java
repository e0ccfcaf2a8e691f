package io.github.retrytopology.runtime.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.ConnectionFactory;
import io.github.retrytopology.model.topology.BrokerVersion;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Optional;
import java.util.stream.Stream;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.rabbitmq.RabbitMQContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The RabbitMQ broker the tests run against, found once per JVM in this order:
 * <ol>
 *   <li>the one named by {@value #AMQP_URI_VARIABLE} and {@value #MANAGEMENT_URI_VARIABLE};
 *   <li>a container of {@value #IMAGE_VARIABLE} (by default {@value #DEFAULT_IMAGE}) started through
 *       Testcontainers, if a Docker engine answers;
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
    /**
     * The name of that broker's node where {@code .ci/test-broker} runs it in its installation
     * ({@value Installation#ROOT_VARIABLE}), so that {@code rabbitmqctl} reaches it.
     */
    public static final String NODE_VARIABLE = "RETRY_TEST_RABBITMQ_NODE";
    /** The image that Testcontainers starts where a Docker engine answers, such as {@code rabbitmq:4.0-management}. */
    public static final String IMAGE_VARIABLE = "RETRY_TEST_RABBITMQ_IMAGE";

    static final String DEFAULT_IMAGE = "rabbitmq:4.3-management";
    private static final URI LOCAL_AMQP = URI.create("amqp://guest:guest@127.0.0.1:5672");
    private static final URI LOCAL_MANAGEMENT = URI.create("http://guest:guest@127.0.0.1:15672");

    private static Broker shared;
    private static IllegalStateException missing;

    private final URI amqp;
    private final URI management;
    private final String origin;
    private final NodeControl control;
    private BrokerVersion version;

    private Broker(URI amqp, URI management, String origin, NodeControl control) {
        this.amqp = amqp;
        this.management = management;
        this.origin = origin;
        this.control = control;
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
            String node = System.getenv(NODE_VARIABLE);
            return new Broker(URI.create(amqp), URI.create(management), "the environment (" + AMQP_URI_VARIABLE + ")",
                    node == null ? null : SharedNode.in(Installation.find().orElseThrow(), node));
        }
        boolean docker = DockerClientFactory.instance().isDockerAvailable();
        if (!docker && System.getenv(IMAGE_VARIABLE) != null) {
            throw new IllegalStateException(IMAGE_VARIABLE + " asks for " + image() + ", and no Docker engine answers "
                    + "to start it: without Docker, .ci/test-broker start 4.3 (or 4.0) provides that broker");
        }
        if (docker) {
            RabbitMQContainer container = new RabbitMQContainer(DockerImageName.parse(image()));
            container.start();
            URI amqpUri = withCredentials(URI.create(container.getAmqpUrl()), container.getAdminUsername(),
                    container.getAdminPassword());
            URI managementUri = withCredentials(URI.create(container.getHttpUrl()), container.getAdminUsername(),
                    container.getAdminPassword());
            return new Broker(amqpUri, managementUri, "a Testcontainers " + image() + " container", null);
        }
        boolean localAmqp = answers(LOCAL_AMQP);
        if (localAmqp && answers(LOCAL_MANAGEMENT)) {
            return new Broker(LOCAL_AMQP, LOCAL_MANAGEMENT, "the local broker at 127.0.0.1:5672",
                    onPath("rabbitmqctl") ? SharedNode.machine() : null);
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
                .formatted(AMQP_URI_VARIABLE, MANAGEMENT_URI_VARIABLE, image()));
    }

    /** The image Testcontainers starts: {@value #IMAGE_VARIABLE}, else {@value #DEFAULT_IMAGE}. */
    static String image() {
        return System.getenv().getOrDefault(IMAGE_VARIABLE, DEFAULT_IMAGE);
    }

    /** The broker that a node of the tests' own is. */
    static Broker of(LocalNode node, URI amqp, URI management) {
        return new Broker(amqp, management, "the test node " + node.name(), node);
    }

    /** A broker at these URIs, with credentials. */
    static Broker of(URI amqp, URI management, String origin) {
        return new Broker(amqp, management, origin, null);
    }

    /** Where the broker came from, for failure messages. */
    public String origin() {
        return origin;
    }

    /** {@code rabbitmqctl} for this broker, where it runs on this machine and one reaches it. */
    public Optional<NodeControl> control() {
        return Optional.ofNullable(control);
    }

    /** The RabbitMQ version of this broker, as its management API says. */
    public synchronized BrokerVersion version() throws IOException {
        if (version == null) {
            version = BrokerVersion.parse(new ObjectMapper().readTree(management().get("api/overview"))
                    .path("rabbitmq_version").asText());
        }
        return version;
    }

    /** The management API, as the broker's administrator. */
    public TestManagement management() {
        return TestManagement.of(management);
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
        factory.setConnectionTimeout((int) Patience.CONNECT.toMillis());
        factory.setHandshakeTimeout((int) Patience.CONNECT.toMillis());
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

    private static boolean onPath(String command) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
                .filter(dir -> !dir.isEmpty())
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, command)));
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
