package io.github.retrytopology.it.chaos;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.amqp.BackOffDelayPolicy;
import com.rabbitmq.client.amqp.Environment;
import com.rabbitmq.client.amqp.impl.AmqpEnvironmentBuilder;
import io.github.retrytopology.runtime.consumer.Amqp10RetryingConsumer;
import io.github.retrytopology.runtime.consumer.MessageHandler;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.testing.Patience;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The handler of the chaos runs, and a consumer process that runs it, for the faults that take a whole process
 * down: it fails each message as {@link Workload} says, halts its JVM on a poison message, and writes each
 * success to a file before returning, so that what it did outlives a {@code kill -9}.
 *
 * <p>Arguments: the AMQP URI of the virtual host, the file to append successes to, and the {@link WorkService}, whose
 * protocol picks the consumer: {@link RetryingConsumer} over AMQP 0.9.1, {@link Amqp10RetryingConsumer} over AMQP 1.0.
 */
public final class ChaosWorker {

    /** The exit code of a process that a poison message halted. */
    static final int POISONED = 37;
    static final int PREFETCH = 20;
    static final int CONSUMERS = 2;
    /** How long a client waits before it recovers a lost connection, on either protocol. */
    static final Duration RECOVERY_INTERVAL = Duration.ofMillis(200);

    /** Hears that a message's handler returned. */
    @FunctionalInterface
    interface Successes {
        void succeeded(String id, int attempt) throws IOException;
    }

    private ChaosWorker() {
    }

    /**
     * The handler: works on each message for {@code work}, fails it as often as the workload says, then records
     * its success.
     */
    static MessageHandler handler(Successes successes, Duration work) {
        return context -> {
            String id = context.messageId().orElseThrow();
            if (Workload.isPoison(id)) {
                Runtime.getRuntime().halt(POISONED);
            }
            if (!work.isZero()) {
                Thread.sleep(work.toMillis());
            }
            if (context.attempt() <= Workload.failures(id)) {
                throw new IllegalStateException("planned failure " + context.attempt() + " of " + id);
            }
            successes.succeeded(id, context.attempt());
        };
    }

    /** A consumer of the service as the chaos runs start it: prefetch 20, two consumers. */
    static RetryingConsumer.Builder consumer(Connection connection, WorkService service, Successes successes,
            Duration work) {
        return RetryingConsumer.builder(connection, service.routes(handler(successes, work)))
                .prefetch(PREFETCH).consumers(CONSUMERS);
    }

    /** The same over AMQP 1.0, for a service consumed on that protocol. */
    static Amqp10RetryingConsumer.Builder amqp10Consumer(com.rabbitmq.client.amqp.Connection connection,
            WorkService service, Successes successes, Duration work) {
        return Amqp10RetryingConsumer.builder(connection, service.routes(handler(successes, work)))
                .prefetch(PREFETCH).consumers(CONSUMERS);
    }

    /**
     * An AMQP 1.0 connection to the virtual host of this URI, under this name (the management API lists it as the
     * {@code connection_name} of its client properties), which the client recovers after {@link #RECOVERY_INTERVAL},
     * its subscriptions and publishers with it.
     */
    static com.rabbitmq.client.amqp.Connection amqp10Connection(Environment environment, String uri, String name) {
        return environment.connectionBuilder().uri(uri).name(name)
                .recovery().activated(true).topology(true)
                .backOffDelayPolicy(BackOffDelayPolicy.fixed(RECOVERY_INTERVAL))
                .connectionBuilder()
                .build();
    }

    public static void main(String[] args) throws Exception {
        OutputStream out = new FileOutputStream(Path.of(args[1]).toFile(), true);
        Successes written = (id, attempt) -> {
            synchronized (out) {
                out.write((id + " " + attempt + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        };
        WorkService service = WorkService.valueOf(args[2]);
        if (service.overAmqp10()) {
            Environment environment = new AmqpEnvironmentBuilder().build();
            amqp10Consumer(amqp10Connection(environment, args[0], "chaos-worker"), service, written, Duration.ZERO)
                    .start();
        } else {
            consumer(connect(args[0]), service, written, Duration.ZERO).start();
        }
        Thread.sleep(Duration.ofMinutes(5).toMillis());
        System.exit(1);
    }

    private static Connection connect(String uri) throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setUri(uri);
        factory.setConnectionTimeout((int) Patience.CONNECT.toMillis());
        factory.setHandshakeTimeout((int) Patience.CONNECT.toMillis());
        factory.setNetworkRecoveryInterval(RECOVERY_INTERVAL.toMillis());
        return factory.newConnection("chaos-worker");
    }
}
