package io.github.retrytopology.runtime.benchmark;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.topology.BrokerVersion;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.testing.Broker;
import io.github.retrytopology.runtime.testing.TestManagement;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 * metrics), {@code mixed} (10% fail once and come back a second later, against none; then
 * what the broker alone spends on each step of it, {@code --only broker}), and
 * {@code lateness} (messages paced at 1,000 a second fail up to three times through tiers of 200 ms, 1 s and
 * 5 s, then of 200, 400 and 600 ms: how late each retry arrives). On RabbitMQ 4.3.1 and later, {@code mixed} and
 * {@code lateness} run again with the broker delaying the retries.
 */
public final class ConsumerBenchmark {

    private static final String VHOST = "benchmark-consumer";

    private final Options options;
    private final Broker broker;
    private final ConnectionFactory factory;
    private final ConnectionFactory springFactory;
    private final RetrySpec spec;
    private final BrokerCpu brokerCpu;

    private ConsumerBenchmark(Options options, Broker broker, RetrySpec spec) throws IOException, InterruptedException {
        this.options = options;
        this.broker = broker;
        this.factory = broker.connectionFactory(VHOST);
        // Spring AMQP recovers connections its own way, and says so at length when the client's recovery is on.
        this.springFactory = broker.connectionFactory(VHOST);
        this.springFactory.setAutomaticRecoveryEnabled(false);
        this.spec = spec;
        this.brokerCpu = BrokerCpu.of(broker.management());
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        Broker broker = Broker.shared();
        RetrySpec spec;
        try (InputStream in = ConsumerBenchmark.class.getResourceAsStream("/benchmark.yml")) {
            spec = Specs.parse(in.readAllBytes(), "benchmark.yml");
        }
        // An older broker refuses the delayed-retry policies of the services whose retries the broker delays.
        BrokerVersion version = broker.version();
        spec = new RetrySpec(spec.javaPackage(), spec.vhost(), spec.exchange(), spec.queueSettings(),
                spec.services().stream().filter(service -> version.runs(List.of(service))).toList());
        TestManagement management = broker.management();
        management.deleteVhost(VHOST);
        management.createVhost(VHOST, broker.username());
        try {
            new ConsumerBenchmark(options, broker, spec).run();
        } finally {
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
        if (options.paths.contains("mixed")) {
            for (Service service : services("mixed", "mixed-broker")) {
                Mixed.run(this, service);
            }
        }
        if (options.paths.contains("lateness")) {
            for (Service service : services("paced", "paced-linear", "paced-broker")) {
                Lateness.run(this, service);
            }
        }
    }

    /** Those of these services that the broker runs: the others need a newer RabbitMQ, and were left out. */
    private List<Service> services(String... names) {
        return Arrays.stream(names)
                .flatMap(name -> spec.services().stream().filter(service -> service.name().equals(name)))
                .toList();
    }

    /** Runs each contender on a full queue, round after round, and prints what each achieved. */
    private void throughput(String title, Service service, List<Contender> all) throws Exception {
        List<Contender> contenders = all.stream()
                .filter(contender -> options.only().isEmpty() || contender.name().equals(options.only())).toList();
        System.out.println("== " + title);
        for (Contender contender : contenders) {
            round(contender, service, Math.max(1_000, options.messages / 10));
        }
        Map<String, List<Result>> results = new LinkedHashMap<>();
        contenders.forEach(contender -> results.put(contender.name(), new ArrayList<>()));
        for (int round = 0; round < options.rounds; round++) {
            for (int i = 0; i < contenders.size(); i++) {
                Contender contender = contenders.get((i + round) % contenders.size());
                Result result = round(contender, service, options.messages);
                results.get(contender.name()).add(result);
                System.out.printf(Locale.ROOT, "  round %d  %-28s %9.0f msg/s   JVM %6.1f µs/msg   broker %s%n",
                        round + 1, contender.name(), result.rate(), result.jvmMicros(), result.brokerText());
            }
        }
        Report.print(results, contenders.get(0).name());
        System.out.println();
    }

    /** Publishes the messages, runs the contender until it has taken every one, and measures it. */
    Result round(Contender contender, Service service, int messages) throws Exception {
        purge(service);
        publish(service.routes().get(0).key().value(), messages, i -> false);
        Counter counter = new Counter(messages);
        try (Connection connection = connect(contender.name())) {
            Cpu before = Cpu.now(brokerCpu);
            Contender.Running running = contender.start(connection, springFactory, service, options, counter);
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
            List<String> paths, String only) {

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
                    List.of(given.getOrDefault("paths", "success,retry,mixed,lateness").split(",")),
                    given.getOrDefault("only", ""));
        }
    }
}
