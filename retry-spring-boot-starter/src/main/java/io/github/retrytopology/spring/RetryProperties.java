package io.github.retrytopology.spring;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code retry.*} properties: whether the services of {@code retry.yml} are consumed, how many consumers each
 * has and with what prefetch, whether an unreachable broker fails the start-up, whether the topology is declared,
 * where the AMQP 1.0 connection goes where it differs from {@code spring.rabbitmq.*}, and the health indicator's
 * threshold.
 *
 * <p>Which protocol a service is consumed over is not a property: it is the service's {@code protocol} in
 * {@code retry.yml} ({@code amqp-0.9.1} by default, or {@code amqp-1.0}), because the topology, the delays and the
 * queue's policy follow from it.
 */
@ConfigurationProperties("retry")
public class RetryProperties {

    /** Whether the services whose handler interfaces have beans are consumed. */
    private boolean enabled = true;

    /**
     * Whether the consumers start with the application context; if not, they start when the application calls
     * RetryConsumers.start().
     */
    private boolean autoStartup = true;

    /**
     * Whether a broker that cannot be reached at start-up fails the start-up. If not, the application starts, its
     * health is DOWN, and the consumers connect in the background, with a back-off, as soon as the broker answers.
     */
    private boolean failFast = false;

    /**
     * Whether to declare each spec's exchange, queues, bindings and policies when the consumers connect, in the
     * virtual host they connect to, as importing its definitions.json does: for development and tests. Needs
     * io.github.retrytopology:retry-operations on the class path, and retry.management.url where the spec keeps
     * its queue settings in policies, as it does by default.
     */
    private boolean declareTopology = false;

    /** Each service's settings, by its name in retry.yml. */
    private Map<String, Service> services = new LinkedHashMap<>();

    private final Management management = new Management();

    private final Amqp10 amqp10 = new Amqp10();

    private final Health health = new Health();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public boolean isAutoStartup() {
        return autoStartup;
    }

    public void setAutoStartup(boolean autoStartup) {
        this.autoStartup = autoStartup;
    }

    public boolean isFailFast() {
        return failFast;
    }

    public void setFailFast(boolean failFast) {
        this.failFast = failFast;
    }

    public boolean isDeclareTopology() {
        return declareTopology;
    }

    public void setDeclareTopology(boolean declareTopology) {
        this.declareTopology = declareTopology;
    }

    public Map<String, Service> getServices() {
        return services;
    }

    public void setServices(Map<String, Service> services) {
        this.services = services;
    }

    public Management getManagement() {
        return management;
    }

    public Amqp10 getAmqp10() {
        return amqp10;
    }

    public Health getHealth() {
        return health;
    }

    /** The settings of one service, or the defaults where it has none. */
    Service service(String name) {
        return services.getOrDefault(name, new Service());
    }

    /** The consumers of one service. */
    public static class Service {

        /** Whether this service is consumed; a service that is not needs no handler bean. */
        private boolean enabled = true;

        /** How many consumers, each with a channel of its own, handle the service's messages in parallel. */
        private int consumers = 1;

        /** How many unacknowledged deliveries each consumer may hold, once it is past its cautious start. */
        private int prefetch = 20;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public int getConsumers() {
            return consumers;
        }

        public void setConsumers(int consumers) {
            this.consumers = consumers;
        }

        public int getPrefetch() {
            return prefetch;
        }

        public void setPrefetch(int prefetch) {
            this.prefetch = prefetch;
        }
    }

    /** The RabbitMQ management API, which only retry.declare-topology uses, to set policies. */
    public static class Management {

        /**
         * The management API's base URL, such as http://localhost:15672. Its user is spring.rabbitmq's, unless the
         * URL names one.
         */
        private URI url;

        public URI getUrl() {
            return url;
        }

        public void setUrl(URI url) {
            this.url = url;
        }
    }

    /**
     * The AMQP 1.0 connection of the services whose spec says {@code protocol: amqp-1.0}, opened only where one is
     * consumed. It takes spring.rabbitmq's addresses, credentials, virtual host and SSL bundle; these properties
     * change only what must differ. RabbitMQ 4 serves both protocols on the same listener, so by default nothing
     * does.
     */
    public static class Amqp10 {

        /**
         * The port of the broker's AMQP 1.0 listener, for each of spring.rabbitmq's hosts; unset, each address's own
         * port (RabbitMQ serves AMQP 0.9.1 and 1.0 on 5672, and on 5671 with TLS).
         */
        private Integer port;

        /**
         * The one host to open the AMQP 1.0 connection to, such as a load balancer of its own; unset, the hosts of
         * spring.rabbitmq.addresses (or spring.rabbitmq.host).
         */
        private String host;

        public Integer getPort() {
            return port;
        }

        public void setPort(Integer port) {
            this.port = port;
        }

        public String getHost() {
            return host;
        }

        public void setHost(String host) {
            this.host = host;
        }
    }

    /** The "retry" health indicator. */
    public static class Health {

        /**
         * How many messages a service's parking lot may hold before the indicator reports DOWN; unset, the depth is
         * reported and never changes the status.
         */
        private Long parkingLotThreshold;

        /**
         * How old the parking lots' depths may be when the indicator reports them: it reads them from the broker,
         * with one passive declare per service, at most once in this time, and never while disconnected.
         */
        private Duration parkingLotInterval = Duration.ofSeconds(10);

        public Long getParkingLotThreshold() {
            return parkingLotThreshold;
        }

        public void setParkingLotThreshold(Long parkingLotThreshold) {
            this.parkingLotThreshold = parkingLotThreshold;
        }

        public Duration getParkingLotInterval() {
            return parkingLotInterval;
        }

        public void setParkingLotInterval(Duration parkingLotInterval) {
            this.parkingLotInterval = parkingLotInterval;
        }
    }
}
