package io.github.retrytopology.operations.adopt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.retrytopology.operations.broker.ManagementApi;
import io.github.retrytopology.runtime.testing.Broker;
import io.github.retrytopology.runtime.testing.TestManagement;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Adopting a virtual host of 500 queues, against baselines measured in the same run:
 *
 * <ul>
 *   <li>{@code adoptFile}: reading a definitions file's bytes and drafting its spec and record, the draft checked by
 *       the model's validator; its baseline {@code parseJson}, Jackson reading the same bytes into a tree, the least
 *       any reading of the file pays;
 *   <li>{@code adoptLive}: the same virtual host read from the test broker's management API (its definitions and
 *       its queues' consumers) and drafted; its baseline {@code definitionsCall}, {@code GET /api/definitions/VHOST}
 *       read as a string.
 * </ul>
 *
 * <p>The 100 services have five queues each: the work queue, three wait queues (half of them dead-letter back
 * through the exchange with the message's own routing key, as {@code master} does in the posts, half through the
 * default exchange with a dead-letter routing key) and a failed queue; classic queues, as 500 quorum queues would
 * weigh on the broker others share. Run with {@code ./mvnw -pl retry-operations -am verify -Pbenchmark-adopt}; it
 * needs the test broker, and fills a virtual host of its own, deleted when it ends.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class AdoptBenchmark {

    /** Services in the virtual host, five queues each. */
    static final int SERVICES = 100;

    private static final ObjectMapper JSON = new ObjectMapper();

    private byte[] file;
    private TestManagement management;
    private ManagementApi api;
    private String vhost;

    @Setup(Level.Trial)
    public void fill() throws IOException {
        file = definitions(SERVICES).getBytes(StandardCharsets.UTF_8);
        Broker broker = Broker.shared();
        management = broker.management();
        vhost = "benchmark-adopt-" + UUID.randomUUID().toString().substring(0, 8);
        management.createVhost(vhost, broker.username());
        management.importDefinitions(vhost, new String(file, StandardCharsets.UTF_8));
        api = ManagementApi.of(broker.managementUri());
        if (Definitions.fetch(api, vhost).queueCount() != SERVICES * 5) {
            throw new IllegalStateException("the broker does not hold the " + SERVICES * 5 + " queues imported");
        }
    }

    @TearDown(Level.Trial)
    public void deleteVhost() throws IOException {
        management.deleteVhost(vhost);
    }

    @Benchmark
    public Adoption adoptFile() throws IOException {
        return Adopter.adopt(Definitions.parse(file, "definitions.json", Optional.of("shop")), AdoptOptions.defaults());
    }

    @Benchmark
    public JsonNode parseJson() throws IOException {
        return JSON.readTree(file);
    }

    @Benchmark
    public Adoption adoptLive() throws IOException {
        return Adopter.adopt(Definitions.fetch(api, vhost), AdoptOptions.defaults());
    }

    @Benchmark
    public String definitionsCall() throws IOException {
        return management.exportDefinitions(vhost);
    }

    /** The definitions of one virtual host with this many services, as {@code GET /api/definitions/VHOST} exports. */
    static String definitions(int services) {
        ObjectNode root = JSON.createObjectNode();
        root.put("rabbit_version", "3.10.8");
        ArrayNode queues = root.putArray("queues");
        ArrayNode exchanges = root.putArray("exchanges");
        ArrayNode bindings = root.putArray("bindings");
        root.putArray("policies");
        root.putArray("parameters");
        exchange(exchanges, "events");
        exchange(exchanges, "events.retry");
        exchange(exchanges, "events.failed");
        long[] ttls = {10_000, 60_000, 600_000};
        for (int i = 1; i <= services; i++) {
            String work = "service-" + i + "@work";
            String key = "entity" + i + ".#";
            queue(queues, work, JSON.createObjectNode());
            bind(bindings, "events", work, key);
            for (int tier = 0; tier < ttls.length; tier++) {
                String wait = work + "@wait-" + (tier + 1);
                ObjectNode arguments = JSON.createObjectNode().put("x-message-ttl", ttls[tier]);
                if (i % 2 == 0) {
                    arguments.put("x-dead-letter-exchange", "events");
                    bind(bindings, "events.retry", wait, "entity" + i + ".retry" + (tier + 1) + ".#");
                } else {
                    arguments.put("x-dead-letter-exchange", "").put("x-dead-letter-routing-key", work);
                }
                queue(queues, wait, arguments);
            }
            String failed = work + "@failed";
            queue(queues, failed, JSON.createObjectNode());
            bind(bindings, "events.failed", failed, key);
        }
        return root.toString();
    }

    private static void exchange(ArrayNode exchanges, String name) {
        exchanges.addObject().put("name", name).put("type", "topic").put("durable", true).put("auto_delete", false)
                .put("internal", false).putObject("arguments");
    }

    private static void queue(ArrayNode queues, String name, ObjectNode arguments) {
        queues.addObject().put("name", name).put("durable", true).put("auto_delete", false).set("arguments", arguments);
    }

    private static void bind(ArrayNode bindings, String exchange, String queue, String key) {
        bindings.addObject().put("source", exchange).put("destination", queue).put("destination_type", "queue")
                .put("routing_key", key).putObject("arguments");
    }
}
