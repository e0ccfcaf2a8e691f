package io.github.retrytopology.it;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.github.retrytopology.it.scenarios.CrashingHandler;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.testing.Patience;

/**
 * A consumer process whose handler brings the whole process down on every delivery, as a poison message does to
 * a service with a native crash or an out-of-memory kill: the JVM halts without answering the delivery.
 *
 * <p>Arguments: the AMQP URI of the virtual host.
 */
public final class CrashingConsumer {

    /** The exit code of a crash, to tell it from a failure to start. */
    static final int CRASHED = 37;

    private CrashingConsumer() {
    }

    public static void main(String[] args) throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setUri(args[0]);
        factory.setConnectionTimeout((int) Patience.CONNECT.toMillis());
        factory.setHandshakeTimeout((int) Patience.CONNECT.toMillis());
        Connection connection = factory.newConnection("crashing-consumer");
        RetryingConsumer.builder(connection, CrashingHandler.routes(context -> Runtime.getRuntime().halt(CRASHED)))
                .start();
        Thread.sleep(60_000);
        System.exit(1);
    }
}
