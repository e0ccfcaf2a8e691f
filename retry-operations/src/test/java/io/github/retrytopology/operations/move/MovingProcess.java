package io.github.retrytopology.operations.move;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.github.retrytopology.runtime.testing.Patience;

/**
 * A move in a JVM of its own, for a test to kill halfway: it prints {@code copied N} after every thousandth copy it
 * makes, and {@code moved N} at its end.
 *
 * <p>Arguments: the AMQP URI of the virtual host, the source, the destination.
 */
public final class MovingProcess {

    private MovingProcess() {
    }

    public static void main(String[] args) throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setUri(args[0]);
        factory.setAutomaticRecoveryEnabled(false);
        factory.setConnectionTimeout((int) Patience.CONNECT.toMillis());
        factory.setHandshakeTimeout((int) Patience.CONNECT.toMillis());
        try (Connection connection = factory.newConnection("moving-process")) {
            long[] copied = {0};
            HeaderRewrite counting = (properties, envelope) -> {
                if (++copied[0] % 1_000 == 0) {
                    System.out.println("copied " + copied[0]);
                    System.out.flush();
                }
                return HeaderRewrite.asDelivered().headers(properties, envelope);
            };
            MoveReport report = MessageMover.of(connection).move(args[1], args[2], counting, MoveOptions.defaults());
            System.out.println("moved " + report.moved());
        }
    }
}
