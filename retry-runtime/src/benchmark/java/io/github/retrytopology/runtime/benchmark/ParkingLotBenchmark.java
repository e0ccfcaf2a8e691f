package io.github.retrytopology.runtime.benchmark;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import io.github.retrytopology.model.QueueType;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.parkinglot.FailureGroup;
import io.github.retrytopology.runtime.parkinglot.FailureGroups;
import io.github.retrytopology.runtime.parkinglot.ParkingLot;
import io.github.retrytopology.runtime.parkinglot.ReplayFilter;
import io.github.retrytopology.runtime.parkinglot.ReplayOptions;
import io.github.retrytopology.runtime.parkinglot.ReplayReport;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * How fast the console reads a parking lot by failure: {@link ParkingLot#groups} over a parking lot of
 * {@code --messages} parked messages (100,000 by default, of 512 bytes, in 20 failures whose messages hold numbers
 * and ids), in the same run as two baselines:
 * <ul>
 *   <li>consumers that only count the messages, on as many channels as a reading opens, over a second parking lot
 *   filled alike: the broker's and the client's part of a reading, which no reading can beat;
 *   <li>{@code basic.get}, one message a round trip, as {@link ParkingLot#list(int)} reads, over the first
 *   {@code --baseline} messages.
 * </ul>
 * Each round parks the messages afresh, then reads them twice, each time on a quiet broker: first as
 * an on-call engineer finds them, never delivered before, then again, when the broker adds the delivery count of
 * the first reading to each. {@code --warmup} readings come first and are not reported: a console has been
 * running, its code compiled, when the person on call opens a parking lot. After each reading it checks that every
 * message was counted, in the groups it was parked in, and is parked still.
 *
 * <p>Last in each round, it replays {@value #SPREAD} messages chosen by id and spread evenly through the parking
 * lot, the last of them at 97.5% of it: a thin group, which a replay finds only by looking at nearly every parked
 * message. Its baseline is the round's second reading by consumers that only count, since the messages have been
 * delivered before by then.
 *
 * <pre>
 * ./mvnw -pl retry-runtime -am verify -Pbenchmark -Dbenchmark.main=io.github.retrytopology.runtime.benchmark.ParkingLotBenchmark \
 *     -Dbenchmark.args="--messages 100000 --rounds 5"
 * </pre>
 *
 * <p>{@code --queue-type classic} reads the parking lots of a service whose queues are classic.
 */
public final class ParkingLotBenchmark {

    private static final String VHOST = "retry-benchmark-parking-lot";
    private static final int FAILURES = 20;
    /** How many messages the replay of each round takes, spread through the parking lot. */
    private static final int SPREAD = 20;

    private ParkingLotBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int messages = intOption(args, "--messages", 100_000);
        int rounds = intOption(args, "--rounds", 5);
        int warmup = intOption(args, "--warmup", 1);
        int baseline = intOption(args, "--baseline", 10_000);
        int size = intOption(args, "--size", 512);
        QueueType queueType = QueueType.valueOf(option(args, "--queue-type", "quorum").toUpperCase(Locale.ROOT));
        Broker broker = Broker.shared();
        RetrySpec spec;
        try (InputStream in = ParkingLotBenchmark.class.getResourceAsStream("/benchmark.yml")) {
            spec = Specs.parse(in.readAllBytes(), "benchmark.yml").inVhost(VHOST);
        }
        // Two lots alike, one read by group and one by consumers that only count; any broker runs them.
        Service plain = spec.service("plain");
        Service read = new Service(plain.name(), plain.queue(), plain.routes(), plain.retryPolicy(), queueType);
        Service counted = new Service("twin", plain.routes(), plain.retryPolicy(), queueType);
        spec = new RetrySpec(spec.javaPackage(), spec.vhost(), spec.exchange(), spec.queueSettings(),
                List.of(read, counted));
        TestManagement management = broker.management();
        management.deleteVhost(VHOST);
        management.createVhost(VHOST, broker.username());
        try (Connection connection = broker.connectionFactory(VHOST).newConnection("parking-lot-benchmark")) {
            management.importTopology(Topology.of(spec));
            ParkingLot parkingLot = ParkingLot.of(connection, read);
            System.out.printf(Locale.ROOT, "Parking-lot benchmark against %s (RabbitMQ %s): %,d parked messages of %d "
                    + "bytes in %d failures, in a %s queue, %d rounds after %d of warm-up%n%n", broker.origin(),
                    broker.version(), messages, size, FAILURES, queueType.id(), rounds, warmup);
            fill(connection, read, messages, size);
            for (int round = 0; round < warmup; round++) {
                groups(parkingLot, messages, 0);
            }
            BrokerCpu brokerCpu = BrokerCpu.of(management);
            System.out.println("| round | first reading: ms | JVM CPU ms | broker CPU ms | count only: ms | over count "
                    + "only | read again: ms | JVM CPU ms | broker CPU ms | count only: ms | over count only "
                    + "| basic.get over " + baseline + ": ms | again over basic.get "
                    + "| replay of " + SPREAD + " spread: ms | over count only |");
            System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
            List<Pass> firsts = new ArrayList<>();
            List<Pass> agains = new ArrayList<>();
            double[] overGet = new double[rounds];
            double[] replays = new double[rounds];
            double[] overCounted = new double[rounds];
            for (int round = 1; round <= rounds; round++) {
                fill(connection, read, messages, size);
                fill(connection, counted, messages, size);
                Pass first = Pass.run(parkingLot, connection, counted, brokerCpu, messages, round);
                Pass again = Pass.run(parkingLot, connection, counted, brokerCpu, messages, round);
                firsts.add(first);
                agains.add(again);
                long began = System.nanoTime();
                int listed = parkingLot.list(baseline).size();
                double got = (System.nanoTime() - began) / 1e6;
                check(listed == baseline, "basic.get listed " + listed + " of " + baseline);
                awaitParked(parkingLot, messages);
                overGet[round - 1] = (messages / again.grouped()) / (baseline / got);
                brokerCpu.awaitQuiet();
                replays[round - 1] = replaySpread(connection, parkingLot, read, messages, round);
                overCounted[round - 1] = replays[round - 1] / again.counted();
                System.out.printf(Locale.ROOT, "| %d | %s | %s | %.0f | %.1f× | %.0f | %.2f× |%n", round, first, again,
                        got, overGet[round - 1], replays[round - 1], overCounted[round - 1]);
            }
            System.out.printf(Locale.ROOT, "%nmedian: %,d messages grouped on a first reading in %s; read again, in "
                    + "%s; %.1f× the rate of basic.get%n", messages, Pass.summary(firsts), Pass.summary(agains),
                    median(overGet));
            System.out.printf(Locale.ROOT, "median: %d messages spread through the parking lot replayed in %.0f ms "
                    + "(range %.0f–%.0f), %.2f× (%.2f–%.2f×) the time consumers that only count take to read it%n",
                    SPREAD, median(replays), min(replays), max(replays), median(overCounted), min(overCounted),
                    max(overCounted));
        } finally {
            management.deleteVhost(VHOST);
        }
        System.exit(0);
    }

    /**
     * One reading of each lot, each on a quiet broker, so that none is timed with the work the one before left it:
     * by group, with the JVM's and the broker's CPU, then by consumers that only count.
     */
    private record Pass(double grouped, String cpu, double counted) {

        static Pass run(ParkingLot parkingLot, Connection connection, Service counted, BrokerCpu brokerCpu,
                int messages, int round) throws Exception {
            brokerCpu.awaitQuiet();
            Cpu before = Cpu.now(brokerCpu);
            double grouped = groups(parkingLot, messages, round);
            Cpu after = Cpu.now(brokerCpu);
            brokerCpu.awaitQuiet();
            return new Pass(grouped, ParkingLotBenchmark.cpu(brokerCpu, before, after),
                    countOnly(connection, counted, messages));
        }

        /** Its cells of the table: by group, its CPU, count only, and the ratio. */
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%.0f | %s | %.0f | %.2f×", grouped, cpu, counted, grouped / counted);
        }

        /** The medians of passes, and the range of their readings by group. */
        static String summary(List<Pass> passes) {
            double[] grouped = passes.stream().mapToDouble(Pass::grouped).toArray();
            double[] counted = passes.stream().mapToDouble(Pass::counted).toArray();
            return String.format(Locale.ROOT, "%.0f ms (range %.0f–%.0f), where consumers that only count took %.0f ms",
                    median(grouped), min(grouped), max(grouped), median(counted));
        }
    }

    /** Reads the parking lot by group, checks what it found, waits until every message is back; returns its ms. */
    private static double groups(ParkingLot parkingLot, int messages, int round) throws Exception {
        long began = System.nanoTime();
        FailureGroups read = parkingLot.groups(Long.MAX_VALUE);
        double took = (System.nanoTime() - began) / 1e6;
        long counted = read.groups().stream().mapToLong(FailureGroup::count).sum();
        check(counted == messages && read.scanned() == messages, "round " + round + " counted " + counted + " of "
                + messages + " messages");
        check(read.groups().size() == FAILURES, "round " + round + " found " + read.groups().size() + " groups, not "
                + FAILURES + ": " + read.groups());
        awaitParked(parkingLot, messages);
        return took;
    }

    /**
     * Replays {@value #SPREAD} messages spread through the parking lot to the service's queue, checks that each went
     * there and nothing else left the parking lot, and empties the service's queue again; returns the replay's ms.
     */
    private static double replaySpread(Connection connection, ParkingLot parkingLot, Service service, int messages,
            int round) throws Exception {
        List<String> ids = new ArrayList<>();
        for (int k = 0; k < SPREAD; k++) {
            ids.add("m-" + (long) (2 * k + 1) * messages / (2 * SPREAD));
        }
        long began = System.nanoTime();
        ReplayReport report = parkingLot.replay(ReplayFilter.all().ids(ids), ReplayOptions.limit(SPREAD));
        double took = (System.nanoTime() - began) / 1e6;
        check(report.replayed() == SPREAD, "round " + round + " replayed " + report.replayed() + " of " + SPREAD);
        awaitParked(parkingLot, messages - SPREAD);
        Channel channel = connection.createChannel();
        try {
            long queued = channel.queuePurge(service.queue()).getMessageCount();
            check(queued == SPREAD, "round " + round + ": the service's queue held " + queued + ", not " + SPREAD);
        } finally {
            channel.close();
        }
        return took;
    }

    /** The JVM's and the broker's CPU time between two readings, as two cells of the table. */
    private static String cpu(BrokerCpu brokerCpu, Cpu before, Cpu after) {
        return (after.jvm() - before.jvm()) / 1_000_000 + " | "
                + (brokerCpu.available() ? String.valueOf((after.broker() - before.broker()) / 1_000_000) : "-");
    }

    /**
     * The broker's and the client's part of a reading: the same consumers on as many channels, holding as many
     * messages each, that only count what arrives, then close their channels; done when the parking lot counts every
     * message again, as a reading is. No reading of the parking lot can be faster than this.
     */
    private static double countOnly(Connection connection, Service service, int messages) throws Exception {
        String queue = service.parkingLot();
        int perChannel = 2_000; // as a reading holds: a quorum queue's most per consumer
        CountDownLatch all = new CountDownLatch(messages);
        List<Channel> channels = new ArrayList<>();
        long began = System.nanoTime();
        try {
            while (channels.size() < (messages + perChannel - 1) / perChannel) {
                Channel channel = connection.createChannel();
                channels.add(channel);
                channel.basicQos(perChannel);
                channel.basicConsume(queue, false, new DefaultConsumer(channel) {
                    @Override
                    public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties properties,
                            byte[] body) {
                        all.countDown();
                    }
                });
            }
            check(all.await(2, TimeUnit.MINUTES), "consumers that only count received " + (messages - all.getCount())
                    + " of " + messages + " messages");
        } finally {
            for (Channel channel : channels) {
                channel.close();
            }
        }
        awaitParked(ParkingLot.of(connection, service), messages);
        return (System.nanoTime() - began) / 1e6;
    }

    /** Parks {@code messages} messages in {@value #FAILURES} failures, in place of any, with confirms in batches. */
    private static void fill(Connection connection, Service service, int messages, int size) throws Exception {
        Channel channel = connection.createChannel();
        channel.queuePurge(service.parkingLot());
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

    private static double min(double[] values) {
        return Arrays.stream(values).min().orElse(0);
    }

    private static double max(double[] values) {
        return Arrays.stream(values).max().orElse(0);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }

    private static int intOption(String[] args, String name, int fallback) {
        return Integer.parseInt(option(args, name, String.valueOf(fallback)));
    }

    private static String option(String[] args, String name, String fallback) {
        List<String> list = new ArrayList<>(Arrays.asList(args));
        int at = list.indexOf(name);
        return at >= 0 && at + 1 < list.size() ? list.get(at + 1) : fallback;
    }
}
