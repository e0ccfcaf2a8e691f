package io.github.retrytopology.model;

import static java.util.Objects.requireNonNull;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A validated {@code retry.yml}: the services of one exchange and how each retries. Everything else, the
 * broker topology, the generated code and the runtime's decisions, derives from it.
 *
 * <p>Read one with {@code Specs.load(Path)}; build one in code with the constructor.
 *
 * @param javaPackage the Java package of the generated code
 * @param vhost the RabbitMQ virtual host
 * @param exchange the topic exchange that publishers use
 * @param queueSettings where the queues' TTL and dead-letter settings are kept
 * @param services the consuming services, in the spec's order
 */
public record RetrySpec(String javaPackage, String vhost, String exchange, QueueSettings queueSettings,
        List<Service> services) {

    /**
     * The most queues a spec may need: each service's own, its parking lot and its wait queues. Beyond this, the
     * generated definitions and classes grow past what a build, a broker import and a class file take well.
     */
    public static final int MAX_QUEUES = 10_000;

    public RetrySpec {
        requireNonNull(javaPackage, "javaPackage");
        requireNonNull(vhost, "vhost");
        requireNonNull(exchange, "exchange");
        requireNonNull(queueSettings, "queueSettings");
        services = List.copyOf(services);
        if (services.isEmpty()) {
            throw new IllegalArgumentException("a spec has at least one service");
        }
        Set<String> types = new HashSet<>();
        long queues = 0;
        for (Service service : services) {
            if (!types.add(service.javaType())) {
                throw new IllegalArgumentException("two services are named '" + service.name()
                        + "' once their names are turned into Java names");
            }
            queues += 2 + service.retryPolicy().tiers().size();
        }
        if (queues > MAX_QUEUES) {
            throw new IllegalArgumentException("the services need " + queues + " queues, more than " + MAX_QUEUES);
        }
        checkKeptQueues(services);
    }

    /**
     * Kept queues are the only names not derived from a service's: none may have the shape of a queue of one of the
     * spec's services, which plan and apply would take for that service's, nor be another kept queue or its
     * migration's temporary queue.
     */
    private static void checkKeptQueues(List<Service> services) {
        Set<String> names = services.stream().map(Service::name).collect(Collectors.toSet());
        Set<String> kept = new HashSet<>();
        for (Service service : services) {
            if (service.keepsQueue()) {
                boolean shaped = Names.parseQueue(service.queue()).filter(name -> names.contains(name.service()))
                        .isPresent();
                if (shaped || !kept.add(service.queue())) {
                    throw new IllegalArgumentException("service '" + service.name() + "' cannot consume queue '"
                            + service.queue() + "': it is named as a queue of another service of the spec, or kept twice");
                }
            }
        }
        for (String queue : kept) {
            if (Names.isMigrationQueue(queue) && kept.contains(Names.migratedQueue(queue))) {
                throw new IllegalArgumentException("queue '" + queue + "' is kept, and is also the temporary queue "
                        + "of a migration of '" + Names.migratedQueue(queue) + "'");
            }
        }
    }

    /** Returns the service with this name. */
    public Service service(String name) {
        return services.stream()
                .filter(service -> service.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no service '" + name + "'; the services are "
                        + services.stream().map(Service::name).collect(Collectors.joining(", "))));
    }

    /** What the names of queues and policies are to this spec, its kept queues included. */
    public QueueNames queueNames() {
        return QueueNames.of(this);
    }

    /** The generated topology class, by its qualified name: {@code com.acme.media.retry.RetryTopology}. */
    public String topologyClass() {
        return javaPackage + "." + Names.TOPOLOGY_CLASS;
    }

    /**
     * A service's generated handler interface, by its qualified name: {@code com.acme.media.retry.CdnPurgeHandler}.
     */
    public String handlerInterface(Service service) {
        return javaPackage + "." + service.handlerInterface();
    }

    /**
     * The generated resource that names the topology class:
     * {@code META-INF/retry-topology/com.acme.media.retry.properties}.
     */
    public String topologyResource() {
        return Names.topologyResource(javaPackage);
    }

    /** Returns the same spec in another virtual host: where the command line's URI or a test points it. */
    public RetrySpec inVhost(String otherVhost) {
        return new RetrySpec(javaPackage, otherVhost, exchange, queueSettings, services);
    }
}
