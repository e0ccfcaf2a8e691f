package io.github.retrytopology.operations.console;

import com.rabbitmq.client.Connection;
import io.github.retrytopology.operations.broker.BrokerAccess;
import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * The console's connection to the spec's virtual host, opened when first needed and again after the broker closed
 * it: a console stays up while the broker restarts.
 */
final class AmqpConnection implements AutoCloseable {

    private final BrokerAccess access;
    private final String vhost;
    private @Nullable Connection connection;

    AmqpConnection(BrokerAccess access, String vhost) {
        this.access = access;
        this.vhost = vhost;
    }

    synchronized Connection get() throws IOException {
        if (connection == null || !connection.isOpen()) {
            try {
                connection = access.connect(vhost, "retry-console");
            } catch (IOException e) {
                throw new IOException("cannot connect to virtual host '" + vhost + "': "
                        + io.github.retrytopology.operations.internal.BrokerMessages.of(e), e);
            }
        }
        return connection;
    }

    @Override
    public synchronized void close() {
        if (connection != null && connection.isOpen()) {
            try {
                connection.close();
            } catch (IOException | RuntimeException e) {
                connection.abort();
            }
        }
    }
}
