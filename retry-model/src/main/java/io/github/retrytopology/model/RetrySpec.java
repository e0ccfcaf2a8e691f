package io.github.retrytopology.model;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.read.InvalidSpecException;
import io.github.retrytopology.model.read.Problems;
import io.github.retrytopology.model.read.SpecReader;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.model.validate.SpecValidator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A validated {@code retry.yml}: the services of one exchange and how each retries. Everything else, the
 * broker topology, the generated code and the runtime's decisions, derives from it.
 *
 * <p>Read one with {@link #load(Path)}; build one in code with the constructor.
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
    }

    /**
     * Reads and validates a spec file.
     *
     * @throws InvalidSpecException listing every problem of the file, if it has any
     * @throws IOException if the file cannot be read
     */
    public static RetrySpec load(Path file) throws IOException {
        return parse(readBytes(file), file.toString());
    }

    /**
     * Reads the bytes of a spec file, never more than one past {@link SpecReader#MAX_BYTES}: a larger file is
     * refused anyway, and a huge one must not fill the memory first.
     */
    public static byte[] readBytes(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes(SpecReader.MAX_BYTES + 1);
        }
    }

    /**
     * Reads and validates a spec.
     *
     * @param content the file's bytes, UTF-8
     * @param file the file's name, as problems should name it
     * @throws InvalidSpecException listing every problem, if there is any
     */
    public static RetrySpec parse(byte[] content, String file) {
        Problems problems = new Problems();
        Optional<RetrySpec> spec = SpecReader.read(content, file, problems)
                .flatMap(draft -> SpecValidator.validate(draft, problems));
        problems.throwIfAny(file);
        return spec.orElseThrow(() -> new IllegalStateException("a spec without problems was not built: " + file));
    }

    /** Returns the service with this name. */
    public Service service(String name) {
        return services.stream()
                .filter(service -> service.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no service '" + name + "'; the services are "
                        + services.stream().map(Service::name).collect(Collectors.joining(", "))));
    }

    /** Returns the same spec in another virtual host: where the command line's URI or a test points it. */
    public RetrySpec inVhost(String otherVhost) {
        return new RetrySpec(javaPackage, otherVhost, exchange, queueSettings, services);
    }

    /** Returns the broker objects this spec needs. */
    public Topology topology() {
        return Topology.of(this);
    }
}
