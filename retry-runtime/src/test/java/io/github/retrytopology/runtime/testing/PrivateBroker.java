package io.github.retrytopology.runtime.testing;

import java.io.IOException;
import org.testcontainers.DockerClientFactory;

/**
 * A RabbitMQ broker of a test's own, for faults that stop, kill, restart or reconfigure a broker, which must never
 * touch the broker other tests and programs use: a {@link LocalNode} started from the machine's RabbitMQ, else a
 * {@link ContainerNode} where a Docker engine answers.
 */
public interface PrivateBroker extends AutoCloseable {

    /**
     * Starts one, whose name begins with {@code purpose}: from the installation of {@value Installation#ROOT_VARIABLE}
     * if set, else in a container of {@value Broker#IMAGE_VARIABLE} if set, else from the machine's RabbitMQ, else
     * in a container where a Docker engine answers.
     */
    static PrivateBroker start(String purpose) throws IOException {
        boolean docker = DockerClientFactory.instance().isDockerAvailable();
        if (System.getenv(Installation.ROOT_VARIABLE) == null && System.getenv(Broker.IMAGE_VARIABLE) != null
                && docker) {
            return ContainerNode.start();
        }
        if (LocalNode.available()) {
            return LocalNode.start(purpose);
        }
        if (docker) {
            return ContainerNode.start();
        }
        throw new IllegalStateException("A test needs a RabbitMQ broker of its own, to stop or reconfigure it, and "
                + "there is neither a RabbitMQ installation to start a node from (install RabbitMQ, run "
                + ".ci/test-broker, or set " + Installation.SBIN_VARIABLE + ") nor a Docker engine");
    }

    /** The broker, as the tests connect to it. */
    Broker broker();

    /** Stops the broker gracefully, as an operator would; {@link #startAgain()} brings it back with its data. */
    void stop() throws IOException;

    /** Kills the broker as a crash would (SIGKILL); {@link #startAgain()} brings it back with its data. */
    void kill() throws IOException;

    /** Starts the broker again, with its data, and waits until it takes connections. */
    void startAgain() throws IOException;

    /** Stops the broker gracefully and starts it again. */
    default void restart() throws IOException {
        stop();
        startAgain();
    }

    /** Runs {@code rabbitmqctl} against the broker and returns what it printed. */
    String ctl(String... arguments) throws IOException;

    /** Stops the broker for good and deletes what it kept. */
    @Override
    void close();
}
