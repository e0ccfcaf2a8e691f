package io.github.retrytopology.it.amqp10;

import com.rabbitmq.client.amqp.Connection;
import com.rabbitmq.client.amqp.Environment;
import com.rabbitmq.client.amqp.impl.AmqpEnvironmentBuilder;
import java.util.concurrent.CountDownLatch;

/**
 * A consumer in a process of its own that takes one message and never settles it, for {@link DelayedRetryFactsIT} to
 * kill: {@code HoldingConsumer HOST PORT USER PASSWORD VHOST QUEUE} prints {@value #HOLDING} once it holds one.
 */
final class HoldingConsumer {

    static final String HOLDING = "holding";

    private HoldingConsumer() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 6) {
            throw new IllegalArgumentException("expected HOST PORT USER PASSWORD VHOST QUEUE, got " + args.length
                    + " arguments");
        }
        Environment environment = new AmqpEnvironmentBuilder().build();
        Connection connection = environment.connectionBuilder()
                .host(args[0]).port(Integer.parseInt(args[1])).username(args[2]).password(args[3]).virtualHost(args[4])
                .recovery().activated(false).connectionBuilder()
                .build();
        CountDownLatch held = new CountDownLatch(1);
        connection.consumerBuilder().queue(args[5]).initialCredits(1)
                .messageHandler((context, message) -> held.countDown())
                .build();
        held.await();
        System.out.println(HOLDING);
        System.out.flush();
        new CountDownLatch(1).await(); // until the test kills this process
    }
}
