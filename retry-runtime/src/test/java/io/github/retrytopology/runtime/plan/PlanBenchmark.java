package io.github.retrytopology.runtime.plan;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.testing.Broker;
import io.github.retrytopology.runtime.topology.BrokerAccess;
import io.github.retrytopology.runtime.topology.ManagementApi;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * plan reads. Run with {@code ./mvnw -pl retry-runtime -am verify -Pbenchmark-plan}; it needs the test broker, and
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

    private ManagementApi api;
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
        ManagementApi api = broker.management();
        String vhost = "benchmark-plan-" + UUID.randomUUID().toString().substring(0, 8);
        api.createVhost(vhost);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                api.deleteVhost(vhost);
            } catch (IOException e) {
                System.err.println("could not delete the benchmark's vhost " + vhost + ": " + e.getMessage());
            }
        }));
        api.grantAll(vhost, broker.username());
        RetrySpec spec = Specs.parse(spec(SERVICES, vhost).getBytes(StandardCharsets.UTF_8), "retry.yml");
        Topology topology = Topology.of(spec);
        // Policies before queues, as the broker's own import does: setting a policy costs RabbitMQ a match of every
        // policy against every queue of the vhost, seconds each once 3,000 queues are there.
        importDefinitions(broker, vhost, definitions(topology, true));
        importDefinitions(broker, vhost, definitions(topology, false));
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

    /** Imports definitions with a timeout long enough for thousands of objects, which the API's own lacks. */
    private static void importDefinitions(Broker broker, String vhost, String definitions) throws Exception {
        URI management = broker.managementUri();
        String[] credentials = management.getUserInfo().split(":", 2);
        HttpRequest request = HttpRequest.newBuilder(URI.create(management.getScheme() + "://" + management.getHost() + ":"
                        + management.getPort() + "/api/definitions/" + ManagementApi.encode(vhost)))
                .timeout(Duration.ofMinutes(10))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                        (credentials[0] + ":" + credentials[1]).getBytes(StandardCharsets.UTF_8)))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(definitions))
                .build();
        HttpResponse<String> response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw new IOException("importing definitions answered " + response.statusCode() + ": " + response.body());
        }
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

    /**
     * The topology as definitions of one virtual host, the format {@code POST /api/definitions/VHOST} takes: only
     * its policies, or everything else.
     */
    static String definitions(Topology topology, boolean policiesOnly) throws IOException {
        Map<String, Object> definitions = new LinkedHashMap<>();
        if (policiesOnly) {
            List<Map<String, Object>> policies = new ArrayList<>();
            topology.policies().forEach(policy -> policies.add(Map.of("name", policy.name(), "pattern", policy.pattern(),
                    "apply-to", policy.applyTo(), "priority", policy.priority(), "definition", policy.definition())));
            definitions.put("policies", policies);
            return new ObjectMapper().writeValueAsString(definitions);
        }
        List<Map<String, Object>> queues = new ArrayList<>();
        topology.queues().forEach(queue -> queues.add(Map.of("name", queue.name(), "durable", true, "auto_delete", false,
                "arguments", queue.arguments())));
        List<Map<String, Object>> exchanges = new ArrayList<>();
        topology.exchanges().forEach(exchange -> exchanges.add(Map.of("name", exchange.name(), "type", exchange.type(),
                "durable", exchange.durable(), "auto_delete", false, "internal", false, "arguments", Map.of())));
        List<Map<String, Object>> bindings = new ArrayList<>();
        topology.bindings().forEach(binding -> bindings.add(Map.of("source", binding.exchange(), "destination",
                binding.queue(), "destination_type", "queue", "routing_key", binding.routingKey(), "arguments", Map.of())));
        definitions.put("queues", queues);
        definitions.put("exchanges", exchanges);
        definitions.put("bindings", bindings);
        return new ObjectMapper().writeValueAsString(definitions);
    }
}
