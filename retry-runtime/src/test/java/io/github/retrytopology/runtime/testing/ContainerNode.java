package io.github.retrytopology.runtime.testing;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.testcontainers.containers.Container;
import org.testcontainers.rabbitmq.RabbitMQContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A RabbitMQ broker of a test's own in a Docker container, where the machine has no RabbitMQ to start a
 * {@link LocalNode} from. Its ports are bound to fixed host ports, so that they stay the same when the container
 * is stopped, killed and started again.
 */
public final class ContainerNode implements PrivateBroker {

    private final RabbitMQContainer container;
    private final int amqpPort;
    private final int managementPort;

    private ContainerNode(RabbitMQContainer container, int amqpPort, int managementPort) {
        this.container = container;
        this.amqpPort = amqpPort;
        this.managementPort = managementPort;
    }

    /** Starts a container of the tests' image (see {@link Broker#IMAGE_VARIABLE}). */
    public static ContainerNode start() throws IOException {
        int amqp = freePort();
        int management = freePort();
        RabbitMQContainer container = new RabbitMQContainer(DockerImageName.parse(Broker.image()))
                .withCreateContainerCmdModifier(command -> command.getHostConfig().withPortBindings(
                        new PortBinding(Ports.Binding.bindPort(amqp), ExposedPort.tcp(5672)),
                        new PortBinding(Ports.Binding.bindPort(management), ExposedPort.tcp(15672))));
        container.start();
        return new ContainerNode(container, amqp, management);
    }

    @Override
    public Broker broker() {
        String credentials = container.getAdminUsername() + ":" + container.getAdminPassword() + "@";
        return Broker.of(URI.create("amqp://" + credentials + container.getHost() + ":" + amqpPort),
                URI.create("http://" + credentials + container.getHost() + ":" + managementPort),
                "the test container " + container.getContainerName());
    }

    @Override
    public void stop() {
        docker().stopContainerCmd(container.getContainerId()).exec();
    }

    @Override
    public void kill() {
        docker().killContainerCmd(container.getContainerId()).withSignal("SIGKILL").exec();
    }

    @Override
    public void startAgain() throws IOException {
        docker().startContainerCmd(container.getContainerId()).exec();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!(accepts(amqpPort) && accepts(managementPort))) {
            if (System.nanoTime() > deadline) {
                throw new IOException("the container did not take connections within a minute");
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
        ctl("await_startup");
    }

    @Override
    public String ctl(String... arguments) throws IOException {
        List<String> command = new ArrayList<>(List.of("rabbitmqctl", "-q"));
        command.addAll(List.of(arguments));
        try {
            Container.ExecResult result = container.execInContainer(command.toArray(String[]::new));
            if (result.getExitCode() != 0) {
                throw new IOException(String.join(" ", command) + " failed (" + result.getExitCode() + "): "
                        + result.getStdout() + result.getStderr());
            }
            return result.getStdout();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + String.join(" ", command), e);
        }
    }

    @Override
    public void close() {
        container.stop();
    }

    private DockerClient docker() {
        return container.getDockerClient();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(container.getHost(), port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
