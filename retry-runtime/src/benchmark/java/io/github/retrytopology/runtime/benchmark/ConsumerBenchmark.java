package io.github.retrytopology.runtime.benchmark;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.amqp.Environment;
import com.rabbitmq.client.amqp.impl.AmqpEnvironmentBuilder;
import io.github.retrytopology.model.Protocol;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.topology.BrokerVersion;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.consumer.Amqp10RetryingConsumer;
import io.github.retrytopology.runtime.consumer.DeliveryObserver;
import io.github.retrytopology.runtime.consumer.RetryListener;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.consumer.Routes;
import io.github.retrytopology.runtime.consumer.ServiceConsumer;
import io.github.retrytopology.runtime.testing.Broker;
import io.github.retrytopology.runtime.testing.TestManagement;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/**
 * The consumer against the raw Java client doing the same work by hand, and Spring AMQP's two listener
 * containers, on a real broker, in one JVM: a warm-up, then rounds in which every contender runs once, the first
 * one rotating. For each path it prints every round's figures, the medians, and the ratios of the consumer to the
 * others, paired round by round, with their spread; CPU is microseconds per message, of this JVM and of the
 * broker (read from {@code /proc}, when the broker runs on this machine).
 *
 * <pre>
 * ./mvnw -pl retry-runtime -am verify -Pbenchmark [-Dbenchmark.args="--messages 100000 --rounds 3"]
 * </pre>
 *
 * Paths: {@code success} (the handler returns; run from the starter's module, also under Spring Boot),
 * {@code retry} (every message fails once: republished with confirms, then acknowledged), {@code observed} (both
 * with Micrometer metrics and OpenTelemetry spans; run from the starter's module, also under Spring Boot with its
 * metrics), {@code amqp10} (the success path of the AMQP 1.0 consumer, against RabbitMQ's AMQP 1.0 client accepting
 * by hand and against this runtime's AMQP 0.9.1 consumer, both on quorum queues), {@code mixed} (10% fail once and
 * come back a second later, against none; then what the broker alone spends on each step of it,
 * {@code --only broker}), and {@code lateness} (messages paced at 1,000 a second fail up to three times through
 * tiers of 200 ms, 1 s and 5 s, then of 200, 400 and 600 ms: how late each retry arrives). On RabbitMQ 4.3.1 and
 * later, {@code mixed} and {@code lateness} run again with the broker delaying the retries, over AMQP 0.9.1 (its
 * linear delay) and over AMQP 1.0 (a delivery time per retry: in {@code mixed} 1 s, then 10 s, the measured window
 * and the messages scaled to it; in {@code lateness} 200 ms, 1 s and 5 s, as the tiers), and {@code mixed} holds the
 * same 10 s by the queue's linear delay and through a tier queue too; on an older broker the services the broker
 * delays, and {@code amqp10}, are skipped with a line that says so. {@code --services NAME,...} runs only those services
 * of {@code mixed} and {@code lateness}.
 */
public final class ConsumerBenchmark {

    private static final String VHOST = "benchmark-consumer";

    private final Options options;
    private final Broker broker;
    private final ConnectionFactory factory;
    private final ConnectionFactory springFactory;
    /** Every service of {@code benchmark.yml}, those this broker cannot run included. */
    private final RetrySpec all;
    /** The services this broker runs: the topology the benchmark imports. */
    private final RetrySpec spec;
    private final BrokerVersion version;
    private final BrokerCpu brokerCpu;
    /** RabbitMQ's AMQP 1.0 client, made on first use: never on a broker that runs no AMQP 1.0 service. */
    private Environment environment;

    private ConsumerBenchmark(Options options, Broker broker, RetrySpec all, BrokerVersion version)
            throws IOException, InterruptedException {
        this.options = options;
        this.broker = broker;
        this.factory = broker.connectionFactory(VHOST);
        // Spring AMQP recovers connections its own way, and says so at length when the client's recovery is on.
        this.springFactory = broker.connectionFactory(VHOST);
        this.springFactory.setAutomaticRecoveryEnabled(false);
        this.all = all;
        this.version = version;
        // An older broker refuses the delayed-retry policies of the services whose retries the broker delays.
        this.spec = new RetrySpec(all.javaPackage(), all.vhost(), all.exchange(), all.queueSettings(),
                all.services().stream().filter(service -> version.runs(List.of(service))).toList());
        this.brokerCpu = BrokerCpu.of(broker.management());
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        Broker broker = Broker.shared();
        RetrySpec spec;
        try (InputStream in = ConsumerBenchmark.class.getResourceAsStream("/benchmark.yml")) {
            spec = Specs.parse(in.readAllBytes(), "benchmark.yml");
        }
        TestManagement management = broker.management();
        management.deleteVhost(VHOST);
        management.createVhost(VHOST, broker.username());
        ConsumerBenchmark benchmark = new ConsumerBenchmark(options, broker, spec, broker.version());
        try {
            benchmark.run();
        } finally {
            if (benchmark.environment != null) {
                benchmark.environment.close();
            }
            management.deleteVhost(VHOST);
        }
        System.exit(0);
    }

    private void run() throws Exception {
        Topology topology = Topology.of(spec.inVhost(VHOST));
        broker.management().importTopology(topology);
        System.out.printf(Locale.ROOT, "Consumer benchmark against %s (broker CPU %s): %,d messages of %d bytes, "
                + "prefetch %d, %d consumers, %d rounds after a warm-up%n%n", broker.origin(),
                brokerCpu.available() ? "read from /proc" : "not measurable here", options.messages, options.size,
                options.prefetch, options.consumers, options.rounds);
        if (options.paths.contains("success")) {
            List<Contender> contenders = new ArrayList<>(List.of(Contender.runtime(Contender.Work.SUCCEED),
                    Contender.raw(Contender.Work.SUCCEED), Contender.springSimple(), Contender.springDirect()));
            Contender.underSpringBoot(broker.amqpUri(VHOST), false).ifPresent(contenders::add);
            throughput("success: the handler returns", spec.service("plain"), contenders);
        }
        if (options.paths.contains("retry")) {
            throughput("retry: every message fails once (republished with confirms, then acknowledged)",
                    spec.service("retrying"), List.of(Contender.runtime(Contender.Work.FAIL),
                            Contender.raw(Contender.Work.FAIL), Contender.raw(Contender.Work.FAIL, true)));
        }
        if (options.paths.contains("observed")) {
            List<Contender> contenders = new ArrayList<>(List.of(Contender.runtime(Contender.Work.SUCCEED),
                    Contender.runtime(Contender.Work.SUCCEED, true)));
            Contender.underSpringBoot(broker.amqpUri(VHOST), true).ifPresent(contenders::add);
            throughput("observed: the success path with Micrometer metrics and OpenTelemetry spans",
                    spec.service("plain"), contenders);
            throughput("observed: the retry path with Micrometer metrics and OpenTelemetry spans",
                    spec.service("retrying"), List.of(Contender.runtime(Contender.Work.FAIL),
                            Contender.runtime(Contender.Work.FAIL, true)));
        }
        if (options.paths.contains("amqp10")) {
            Optional<Service> amqp10 = runnable("amqp10", "plain-amqp10");
            if (amqp10.isPresent()) {
                // The same queue settings and messages as plain's: a quorum queue, no retries.
                throughput("amqp10: the handler returns, consumed over AMQP 1.0, against RabbitMQ's AMQP 1.0 client "
                        + "and against this runtime over AMQP 0.9.1 (quorum queues)", List.of(
                        new Entry(Contender.runtime(Contender.Work.SUCCEED).named("retry-runtime, AMQP 1.0"),
                                amqp10.get()),
                        new Entry(Contender.rawAmqp10(), amqp10.get()),
                        new Entry(Contender.runtime(Contender.Work.SUCCEED).named("retry-runtime, AMQP 0.9.1"),
                                spec.service("plain"))));
            }
        }
        if (options.paths.contains("mixed")) {
            for (Service service : services("mixed", "mixed", "mixed-broker", "mixed-amqp10-1s", "mixed-amqp10",
                    "mixed-broker-10s", "mixed-10s")) {
                Mixed.run(this, service);
            }
        }
        if (options.paths.contains("lateness")) {
            for (Service service : services("lateness", "paced", "paced-linear", "paced-broker", "paced-amqp10")) {
                Lateness.run(this, service);
            }
        }
    }

    /**
     * Those of these services that {@code --services} names, if it names any, and that the broker runs; for each
     * that needs a newer RabbitMQ, a line that says it is skipped.
     */
    private List<Service> services(String path, String... names) {
        return Arrays.stream(names)
                .filter(name -> options.services().isEmpty() || options.services().contains(name))
                .flatMap(name -> runnable(path, name).stream())
                .toList();
    }

    /** The service of this name, if the broker runs it; if not, a line that says the path skips it, and why. */
    private Optional<Service> runnable(String path, String name) {
        Service service = all.service(name);
        if (version.runs(List.of(service))) {
            return Optional.of(service);
        }
        System.out.printf(Locale.ROOT, "== %s: %s skipped: it needs RabbitMQ %s or later (%s), and %s is RabbitMQ "
                + "%s%n%n", path, name, BrokerVersion.requiredBy(List.of(service)).orElseThrow(),
                service.protocol() == Protocol.AMQP_1_0 ? "it is consumed over AMQP 1.0, with a delivery time per "
                        + "retry" : "the broker delays its retries", broker.origin(), version);
        return Optional.empty();
    }

    /** A contender and the service whose queue it consumes. */
    private record Entry(Contender contender, Service service) {
    }

    /** Runs each contender on a full queue of the same service, round after round, and prints what each achieved. */
    private void throughput(String title, Service service, List<Contender> contenders) throws Exception {
        throughput(title, contenders.stream().map(contender -> new Entry(contender, service)).toList());
    }

    /**
     * Runs each contender on a full queue of its service, round after round, the first one rotating, and prints
     * what each achieved; the first contender's ratios to the others are paired round by round.
     */
    private void throughput(String title, List<Entry> all) throws Exception {
        List<Entry> entries = all.stream()
                .filter(entry -> options.only().isEmpty() || entry.contender().name().equals(options.only())).toList();
        System.out.println("== " + title);
        if (entries.isEmpty()) {
            System.out.println("  no contender here is named '" + options.only() + "'");
            System.out.println();
            return;
        }
        for (Entry entry : entries) {
            round(entry.contender(), entry.service(), Math.max(1_000, options.messages / 10));
        }
        Map<String, List<Result>> results = new LinkedHashMap<>();
        entries.forEach(entry -> results.put(entry.contender().name(), new ArrayList<>()));
        for (int round = 0; round < options.rounds; round++) {
            for (int i = 0; i < entries.size(); i++) {
                Entry entry = entries.get((i + round) % entries.size());
                Result result = round(entry.contender(), entry.service(), options.messages);
                results.get(entry.contender().name()).add(result);
                System.out.printf(Locale.ROOT, "  round %d  %-28s %9.0f msg/s   JVM %6.1f µs/msg   broker %s%n",
                        round + 1, entry.contender().name(), result.rate(), result.jvmMicros(), result.brokerText());
            }
        }
        Report.print(results, entries.get(0).contender().name());
        System.out.println();
    }

    /** Publishes the messages, runs the contender until it has taken every one, and measures it. */
    Result round(Contender contender, Service service, int messages) throws Exception {
        purge(service);
        publish(service.routes().get(0).key().value(), messages, i -> false);
        Counter counter = new Counter(messages);
        try (Connections connections = connections(contender.name(), service)) {
            Cpu before = Cpu.now(brokerCpu);
            Contender.Running running = contender.start(connections, service, options, counter);
            boolean done = counter.await(options.timeoutSeconds);
            Cpu after = Cpu.now(brokerCpu);
            running.stop();
            if (!done) {
                throw new IllegalStateException(contender.name() + " took only " + counter.count() + " of " + messages
                        + " messages within " + options.timeoutSeconds + " s");
            }
            return Result.of(messages, before, after, counter.lastAt());
        }
    }

    /** Publishes {@code count} persistent messages, each body carrying its index; confirmed in batches. */
    void publish(String routingKey, int count, java.util.function.IntPredicate fails) throws Exception {
        try (Connection connection = connect("publisher")) {
            Channel channel = connection.createChannel();
            channel.confirmSelect();
            byte[] padding = new byte[Math.max(0, options.size - 16)];
            Arrays.fill(padding, (byte) 'x');
            for (int i = 0; i < count; i++) {
                channel.basicPublish(spec.exchange(), routingKey, false, persistent(), body(i, fails.test(i), padding));
                if (i % 1_000 == 999) {
                    channel.waitForConfirmsOrDie(60_000);
                }
            }
            channel.waitForConfirmsOrDie(60_000);
        }
    }

    /** A body of the benchmark's size: its index and whether it is to fail, then padding. */
    static byte[] body(int index, boolean fails, byte[] padding) {
        byte[] head = String.format(Locale.ROOT, "%010d%c:", index, fails ? 'F' : 'S').getBytes(StandardCharsets.US_ASCII);
        byte[] body = Arrays.copyOf(head, head.length + padding.length);
        System.arraycopy(padding, 0, body, head.length, padding.length);
        return body;
    }

    static int index(byte[] body) {
        return Integer.parseInt(new String(body, 0, 10, StandardCharsets.US_ASCII));
    }

    static boolean failing(byte[] body) {
        return body[10] == 'F';
    }

    static AMQP.BasicProperties persistent() {
        return new AMQP.BasicProperties.Builder().deliveryMode(2).contentType("application/octet-stream").build();
    }

    void purge(Service service) throws IOException, TimeoutException {
        try (Connection connection = connect("purge")) {
            Channel channel = connection.createChannel();
            channel.queuePurge(service.queue());
            for (var tier : service.tiers()) {
                channel.queuePurge(tier.queue());
            }
            channel.queuePurge(service.parkingLot());
        }
    }

    Connection connect(String name) throws IOException {
        try {
            return factory.newConnection(name);
        } catch (TimeoutException e) {
            throw new IOException("connecting to " + broker.origin() + " timed out", e);
        }
    }

    /**
     * Opens what a run consumes {@code service} on, before its clock starts: an AMQP 0.9.1 connection, and an AMQP
     * 1.0 one too where the service is consumed over AMQP 1.0.
     */
    Connections connections(String name, Service service) throws IOException {
        Connection amqp091 = connect(name);
        if (service.protocol() != Protocol.AMQP_1_0) {
            return new Connections(amqp091, springFactory, null);
        }
        try {
            return new Connections(amqp091, springFactory, connectAmqp10(name));
        } catch (RuntimeException e) {
            amqp091.abort();
            throw e;
        }
    }

    /** An AMQP 1.0 connection to the benchmark's virtual host, as the same user. */
    com.rabbitmq.client.amqp.Connection connectAmqp10(String name) {
        if (environment == null) {
            environment = new AmqpEnvironmentBuilder().build();
        }
        URI amqp = broker.amqpUri();
        String[] credentials = amqp.getUserInfo().split(":", 2);
        return environment.connectionBuilder()
                .host(amqp.getHost()).port(amqp.getPort() < 0 ? 5672 : amqp.getPort())
                .username(credentials[0]).password(credentials[1]).virtualHost(VHOST)
                .name(name)
                .build();
    }

    /**
     * The connections a run consumes on, opened before its clock starts: over AMQP 0.9.1, the factory of those that
     * containers open themselves, and over AMQP 1.0 where the service is consumed over it (else none).
     */
    record Connections(Connection amqp091, ConnectionFactory factory, com.rabbitmq.client.amqp.Connection amqp10)
            implements AutoCloseable {

        /** The AMQP 1.0 connection, which a run has only where its service is consumed over AMQP 1.0. */
        @Override
        public com.rabbitmq.client.amqp.Connection amqp10() {
            if (amqp10 == null) {
                throw new IllegalStateException("no AMQP 1.0 connection: the service is consumed over AMQP 0.9.1");
            }
            return amqp10;
        }

        @Override
        public void close() throws IOException {
            try {
                if (amqp10 != null) {
                    amqp10.close();
                }
            } finally {
                amqp091.close();
            }
        }
    }

    /**
     * Starts this project's consumer of the routes' service over the protocol its spec names, on these connections,
     * with the benchmark's prefetch and consumers.
     */
    static ServiceConsumer startRuntime(Connections connections, Routes routes, Options options,
            List<RetryListener> listeners, List<DeliveryObserver> observers) throws IOException {
        if (routes.service().protocol() == Protocol.AMQP_1_0) {
            Amqp10RetryingConsumer.Builder builder = Amqp10RetryingConsumer.builder(connections.amqp10(), routes)
                    .prefetch(options.prefetch()).consumers(options.consumers());
            listeners.forEach(builder::listener);
            observers.forEach(builder::observer);
            return builder.start();
        }
        RetryingConsumer.Builder builder = RetryingConsumer.builder(connections.amqp091(), routes)
                .prefetch(options.prefetch()).consumers(options.consumers());
        listeners.forEach(builder::listener);
        observers.forEach(builder::observer);
        return builder.start();
    }

    Options options() {
        return options;
    }

    RetrySpec spec() {
        return spec;
    }

    BrokerCpu brokerCpu() {
        return brokerCpu;
    }

    ConnectionFactory factory() {
        return factory;
    }

    /** What the benchmark runs, from {@code -Dbenchmark.args} or the command line. */
    record Options(int messages, int rounds, int prefetch, int consumers, int size, int timeoutSeconds,
            List<String> paths, String only, List<String> services) {

        static Options parse(String[] args) {
            Map<String, String> given = new LinkedHashMap<>();
            for (int i = 0; i + 1 < args.length; i += 2) {
                given.put(args[i].replaceFirst("^--", ""), args[i + 1]);
            }
            return new Options(Integer.parseInt(given.getOrDefault("messages", "100000")),
                    Integer.parseInt(given.getOrDefault("rounds", "3")),
                    Integer.parseInt(given.getOrDefault("prefetch", "250")),
                    Integer.parseInt(given.getOrDefault("consumers", "2")),
                    Integer.parseInt(given.getOrDefault("size", "256")),
                    Integer.parseInt(given.getOrDefault("timeout", "300")),
                    List.of(given.getOrDefault("paths", "success,retry,amqp10,mixed,lateness").split(",")),
                    given.getOrDefault("only", ""),
                    given.containsKey("services") ? List.of(given.get("services").split(",")) : List.of());
        }
    }
}
