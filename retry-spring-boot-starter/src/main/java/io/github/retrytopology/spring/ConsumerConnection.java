package io.github.retrytopology.spring;

import com.rabbitmq.client.Address;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.github.retrytopology.model.RetrySpec;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.springframework.amqp.rabbit.connection.AbstractConnectionFactory;
import org.springframework.boot.amqp.autoconfigure.RabbitConnectionDetails;

/**
 * Opens the consumers' own connection with the RabbitMQ client factory that Boot configured from
 * {@code spring.rabbitmq.*} (credentials, virtual host, SSL, timeouts, and every {@code ConnectionFactoryCustomizer}),
 * to the addresses of Boot's connection details, rather than consuming on a connection of Boot's
 * {@code CachingConnectionFactory}:
 * <ul>
 *   <li>RabbitMQ blocks a connection that publishes while a resource alarm is in force, and everything on it with
 *       it: publishers on Boot's connection must not hold up the consumers' acknowledgements.
 *   <li>The consumer relies on the Java client's automatic recovery: the broker requeues what was in flight on a
 *       lost connection, and the channels come back with the connection. Spring turns that recovery off and
 *       replaces its connection instead, which a consumer that holds channels cannot follow.
 *   <li>Handlers run on the connection's dispatch threads, and this connection has one per consumer.
 * </ul>
 */
final class ConsumerConnection implements AutoCloseable {

    private final Connection connection;
    private final ExecutorService dispatch;

    private ConsumerConnection(Connection connection, ExecutorService dispatch) {
        this.connection = connection;
        this.dispatch = dispatch;
    }

    Connection connection() {
        return connection;
    }

    /** Closes the connection, and then its dispatch threads. */
    @Override
    public void close() {
        try {
            if (connection.isOpen()) {
                connection.close();
            }
        } catch (IOException | RuntimeException e) {
            connection.abort();
        } finally {
            dispatch.shutdown();
        }
    }

    /**
     * The virtual host the consumers connect to: Boot's ({@code spring.rabbitmq.virtual-host}, or the path of
     * {@code spring.rabbitmq.addresses}) where it names one, as the command line's URI does; else the one the specs
     * name with {@code vhost:}, {@code /} by default.
     *
     * @param bootVhost Boot's virtual host, null where {@code spring.rabbitmq.*} names none
     * @throws RetryConfigurationException if Boot names none and the specs name different ones, which one
     *     connection cannot consume from
     */
    static String vhost(List<RetrySpec> specs, String bootVhost) {
        if (bootVhost != null) {
            return bootVhost;
        }
        Map<String, String> exchanges = new TreeMap<>();
        specs.forEach(spec -> exchanges.merge(spec.vhost(), "'" + spec.exchange() + "'", (a, b) -> a + ", " + b));
        if (exchanges.size() > 1) {
            throw new RetryConfigurationException(List.of("the specs on the class path name different virtual hosts, "
                    + "and the consumers share one connection: " + exchanges.entrySet().stream()
                            .map(entry -> "vhost '" + entry.getKey() + "' for exchange " + entry.getValue())
                            .collect(Collectors.joining("; "))), "Give every retry.yml the same vhost, or set "
                            + "spring.rabbitmq.virtual-host to the one the consumers connect to.");
        }
        return exchanges.isEmpty() ? "/" : exchanges.keySet().iterator().next();
    }

    /**
     * The client factory Boot configured, copied with automatic recovery on, for this virtual host.
     *
     * @throws IllegalStateException if the application's connection factory is not one of Spring AMQP's
     */
    static ConnectionFactory factory(org.springframework.amqp.rabbit.connection.ConnectionFactory springFactory,
            String vhost) {
        if (!(springFactory instanceof AbstractConnectionFactory configured)) {
            throw new IllegalStateException("the application's RabbitMQ connection factory, a "
                    + springFactory.getClass().getName() + ", is not a Spring AMQP AbstractConnectionFactory, whose "
                    + "settings the retry consumers take");
        }
        ConnectionFactory factory = configured.getRabbitConnectionFactory().clone();
        factory.setAutomaticRecoveryEnabled(true);
        factory.setTopologyRecoveryEnabled(true);
        factory.setVirtualHost(vhost);
        return factory;
    }

    /** Opens a connection with {@code threads} dispatch threads. */
    static ConsumerConnection open(ConnectionFactory factory, RabbitConnectionDetails details, int threads, String name)
            throws IOException {
        List<Address> addresses = details.getAddresses().stream()
                .map(address -> new Address(address.host(), address.port()))
                .toList();
        AtomicInteger count = new AtomicInteger();
        ExecutorService dispatch = Executors.newFixedThreadPool(threads, task -> {
            Thread thread = new Thread(task, "retry-handler-" + count.incrementAndGet());
            thread.setDaemon(false);
            return thread;
        });
        try {
            return new ConsumerConnection(factory.newConnection(dispatch, addresses, name), dispatch);
        } catch (IOException | TimeoutException | RuntimeException e) {
            dispatch.shutdownNow();
            throw new IOException("could not connect to RabbitMQ at " + addresses.stream().map(Address::toString)
                    .collect(Collectors.joining(",")) + ", virtual host '" + factory.getVirtualHost() + "': "
                    + Refusal.describe(e), e);
        }
    }
}
