package io.github.retrytopology.operations.plan;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.operations.broker.BrokerAccess;
import io.github.retrytopology.runtime.testing.Broker;
import io.github.retrytopology.runtime.testing.TestManagement;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A plan of a large spec against a broker that holds it, against a baseline measured in the same run: the
 * management API's definitions call alone, the least that any plan pays.
 *
 * <ul>
 *   <li>{@code plan}: the whole plan, its requests included (definitions, queues' statistics, and nodes, the spec
 *       having classic queues);
 *   <li>{@code definitionsCall}: the baseline, {@code GET /api/definitions/VHOST} read as a string.
 * </ul>
 *
 * <p>The spec's 500 services have six queues each (3,000 queues, 3,000 policies, 1,500 bindings), classic ones:
 * 3,000 quorum queues, each a Raft group, would weigh on the broker others share for no difference in what the
 * plan reads. Run with {@code ./mvnw -pl retry-operations -am verify -Pbenchmark-plan}; it needs the test broker, and
 * fills a vhost of its own, deleted when it ends.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(0)
public class PlanBenchmark {

    /** Services in the spec. */
    static final int SERVICES = 500;

    private static Filled filled;

    private TestManagement api;
    private String vhost;
    private RetrySpec spec;
    private TopologyPlanner planner;

    /**
     * The broker, filled once for both benchmarks (which is why they run in this JVM, unforked): filling it takes
     * RabbitMQ 3.10 over a minute, setting each of 3,000 policies and matching each of 3,000 queues against them.
     */
    private record Filled(String vhost, RetrySpec spec, TopologyPlanner planner) {
    }

    @Setup(Level.Trial)
    public void fillBroker() throws Exception {
        Broker broker = Broker.shared();
        api = broker.management();
        synchronized (PlanBenchmark.class) {
            if (filled == null) {
                filled = fill(broker);
            }
        }
        vhost = filled.vhost();
        spec = filled.spec();
        planner = filled.planner();
    }

    private static Filled fill(Broker broker) throws Exception {
        TestManagement api = broker.management();
        String vhost = "benchmark-plan-" + UUID.randomUUID().toString().substring(0, 8);
        api.createVhost(vhost, broker.username());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                api.deleteVhost(vhost);
            } catch (IOException e) {
                System.err.println("could not delete the benchmark's vhost " + vhost + ": " + e.getMessage());
            }
        }));
        RetrySpec spec = Specs.parse(spec(SERVICES, vhost).getBytes(StandardCharsets.UTF_8), "retry.yml");
        Topology topology = Topology.of(spec);
        // One import, which sets the policies before it declares the queues: a policy set later costs RabbitMQ a
        // match of every policy against every queue of the vhost, seconds each once 3,000 queues are there.
        api.importTopology(topology);
        TopologyPlanner planner = TopologyPlanner.of(BrokerAccess.of(List.of(broker.managementUri().toString()),
                List.of(broker.amqpUri().toString()), Optional.empty(), Optional.empty()));
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        Plan plan = planner.plan(spec);
        while (!plan.inSync() || !plan.warnings().isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the broker did not hold the spec in time: " + PlanTable.summary(plan)
                        + " " + plan.warnings());
            }
            Thread.sleep(1_000);
            plan = planner.plan(spec);
        }
        return new Filled(vhost, spec, planner);
    }

    @Benchmark
    public Plan plan() throws IOException {
        return planner.plan(spec);
    }

    @Benchmark
    public String definitionsCall() throws IOException {
        return api.exportDefinitions(vhost);
    }

    /** A spec of many services, each with three routing keys, one of them a wildcard, and four tiers. */
    static String spec(int count, String vhost) {
        StringBuilder yaml = new StringBuilder("""
                version: 1
                package: com.acme.benchmark
                vhost: %s
                exchange: benchmark.events
                defaults:
                  maxAttempts: 6
                  delays: [10s, 1m, 10m, 1h]
                  queueType: classic
                services:
                """.formatted(vhost));
        for (int i = 1; i <= count; i++) {
            yaml.append("  service-").append(i).append(":\n")
                    .append("    routingKeys:\n")
                    .append("      - entity").append(i).append(".created\n")
                    .append("      - entity").append(i).append(".deleted\n")
                    .append("      - key: entity").append(i).append(".*.changed\n")
                    .append("        handler: changed\n");
        }
        return yaml.toString();
    }
}
