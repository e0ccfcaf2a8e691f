package io.github.retrytopology.runtime.benchmark;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.parkinglot.FailureGroup;
import io.github.retrytopology.runtime.parkinglot.FailureGroups;
import io.github.retrytopology.runtime.parkinglot.ParkingLot;
import io.github.retrytopology.runtime.testing.Broker;
import io.github.retrytopology.runtime.testing.Parked;
import io.github.retrytopology.runtime.testing.TestManagement;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How fast the console reads a parking lot by failure: {@link ParkingLot#groups} over a parking lot of
 * {@code --messages} parked messages (100,000 by default, of 512 bytes, in 20 failures whose messages hold numbers
 * and ids), against the same parking lot read with {@code basic.get}, one message a round trip, as
 * {@link ParkingLot#list(int)} reads it, over its first {@code --baseline} messages, in the same run. A reading
 * of {@code --warmup} rounds first is not reported: a console has been running, its code compiled, when the person on
 * call opens a parking lot. After each reading it checks that every message is still parked and every one was
 * counted.
 *
 * <pre>
 * ./mvnw -pl retry-runtime -am verify -Pbenchmark -Dbenchmark.main=io.github.retrytopology.runtime.benchmark.ParkingLotBenchmark \
 *     -Dbenchmark.args="--messages 100000 --rounds 5"
 * </pre>
 */
public final class ParkingLotBenchmark {

    private static final String VHOST = "retry-benchmark-parking-lot";
    private static final int FAILURES = 20;

    private ParkingLotBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int messages = intOption(args, "--messages", 100_000);
        int rounds = intOption(args, "--rounds", 5);
        int warmup = intOption(args, "--warmup", 1);
        int baseline = intOption(args, "--baseline", 10_000);
        int size = intOption(args, "--size", 512);
        Broker broker = Broker.shared();
        RetrySpec spec;
        try (InputStream in = ParkingLotBenchmark.class.getResourceAsStream("/benchmark.yml")) {
            spec = Specs.parse(in.readAllBytes(), "benchmark.yml").inVhost(VHOST);
        }
        // One service is enough, and any broker runs it.
        Service service = spec.service("plain");
        spec = new RetrySpec(spec.javaPackage(), spec.vhost(), spec.exchange(), spec.queueSettings(), List.of(service));
        TestManagement management = broker.management();
        management.deleteVhost(VHOST);
        management.createVhost(VHOST, broker.username());
        try (Connection connection = broker.connectionFactory(VHOST).newConnection("parking-lot-benchmark")) {
            management.importTopology(Topology.of(spec));
            fill(connection, service, messages, size);
            ParkingLot parkingLot = ParkingLot.of(connection, service);
            System.out.printf(Locale.ROOT, "Parking-lot benchmark against %s (RabbitMQ %s): %,d parked messages of %d "
                    + "bytes in %d failures, %d rounds after %d of warm-up%n%n", broker.origin(), broker.version(),
                    messages, size, FAILURES, rounds, warmup);
            for (int round = 0; round < warmup; round++) {
                parkingLot.groups(Long.MAX_VALUE);
                awaitParked(parkingLot, messages);
            }
            BrokerCpu brokerCpu = BrokerCpu.of(management);
            System.out.println("| round | by group: ms | messages/s | groups | JVM CPU ms | broker CPU ms | basic.get over "
                    + baseline + ": ms | messages/s | by group over basic.get |");
            System.out.println("|---|---|---|---|---|---|---|---|---|");
            double[] ratios = new double[rounds];
            double[] millis = new double[rounds];
            for (int round = 1; round <= rounds; round++) {
                Cpu before = Cpu.now(brokerCpu);
                long began = System.nanoTime();
                FailureGroups read = parkingLot.groups(Long.MAX_VALUE);
                double grouped = (System.nanoTime() - began) / 1e6;
                Cpu after = Cpu.now(brokerCpu);
                long counted = read.groups().stream().mapToLong(FailureGroup::count).sum();
                check(counted == messages && read.scanned() == messages, "round " + round + " counted " + counted
                        + " of " + messages + " messages");
                awaitParked(parkingLot, messages);
                began = System.nanoTime();
                int listed = parkingLot.list(baseline).size();
                double got = (System.nanoTime() - began) / 1e6;
                check(listed == baseline, "basic.get listed " + listed + " of " + baseline);
                awaitParked(parkingLot, messages);
                double groupRate = messages / (grouped / 1000);
                double getRate = baseline / (got / 1000);
                ratios[round - 1] = groupRate / getRate;
                millis[round - 1] = grouped;
                System.out.printf(Locale.ROOT, "| %d | %.0f | %,.0f | %d | %s | %s | %.0f | %,.0f | %.1f× |%n", round,
                        grouped, groupRate, read.groups().size(), (after.jvm() - before.jvm()) / 1_000_000,
                        brokerCpu.available() ? String.valueOf((after.broker() - before.broker()) / 1_000_000) : "-",
                        got, getRate, ratios[round - 1]);
            }
            System.out.printf(Locale.ROOT, "%nmedian: %,d messages grouped in %.0f ms (range %.0f–%.0f), %.1f× the "
                    + "rate of basic.get%n", messages, median(millis), Arrays.stream(millis).min().orElse(0),
                    Arrays.stream(millis).max().orElse(0), median(ratios));
        } finally {
            management.deleteVhost(VHOST);
        }
        System.exit(0);
    }

    /** Parks {@code messages} messages in {@value #FAILURES} failures, with confirms in batches. */
    private static void fill(Connection connection, Service service, int messages, int size) throws Exception {
        Channel channel = connection.createChannel();
        channel.confirmSelect();
        String padding = "x".repeat(Math.max(0, size - 12));
        Instant now = Instant.now();
        for (int i = 0; i < messages; i++) {
            int failure = i % FAILURES;
            Exception thrown = new IOException("failure " + kind(failure) + " after " + (100 + i % 997)
                    + " ms calling 10.0." + (i % 256) + "." + failure + " for order " + java.util.UUID.randomUUID());
            String body = String.format(Locale.ROOT, "%012d", i) + padding;
            Parked.publish(channel, service, "order.created", "m-" + i,
                    body.substring(0, Math.max(size, 12)).getBytes(StandardCharsets.UTF_8), thrown,
                    now.minusMillis(messages - i));
            if (i % 5_000 == 4_999) {
                channel.waitForConfirmsOrDie(60_000);
            }
        }
        channel.waitForConfirmsOrDie(60_000);
        channel.close();
        awaitParked(ParkingLot.of(connection, service), messages);
    }

    private static String kind(int failure) {
        return List.of("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
                "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango").get(failure);
    }

    private static void awaitParked(ParkingLot parkingLot, long messages) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (parkingLot.count() != messages) {
            check(System.nanoTime() - deadline < 0, "the parking lot holds " + parkingLot.count() + ", not " + messages);
            Thread.sleep(20);
        }
    }

    private static void check(boolean holds, String problem) {
        if (!holds) {
            throw new IllegalStateException(problem);
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }

    private static int intOption(String[] args, String name, int fallback) {
        List<String> list = new ArrayList<>(Arrays.asList(args));
        int at = list.indexOf(name);
        return at >= 0 && at + 1 < list.size() ? Integer.parseInt(list.get(at + 1)) : fallback;
    }
}
