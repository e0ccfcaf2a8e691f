package io.github.retrytopology.spring;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code retry.*} properties: whether the services of {@code retry.yml} are consumed, how many consumers each
 * has and with what prefetch, whether an unreachable broker fails the start-up, whether the topology is declared,
 * and the health indicator's threshold.
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
