package io.github.retrytopology.operations.move;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.github.retrytopology.runtime.testing.Broker;
import io.github.retrytopology.runtime.testing.LocalNode;
import io.github.retrytopology.runtime.testing.TestManagement;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How fast the {@link MessageMover} moves messages, against RabbitMQ's dynamic shovel moving the same messages on the
 * same broker in the same run ({@code src-delete-after: queue-length}, {@code ack-mode: on-confirm}, its default
 * prefetch of 1,000, as the mover's). Each round fills a queue with {@code --messages} persistent messages of
 * {@code --size} bytes for each contender, lets the broker settle, and times the move to a queue of the same type; the
 * first contender alternates from round to round. The mover's time ends when its last original is acknowledged, the
 * shovel's as soon as the destination counts every message, before its last acknowledgements: the comparison favours
 * the shovel. One unreported round of a quarter of the messages warms both up.
 *
 * <p>The shovel plugin is enabled on none but a node of the benchmark's own, started from the machine's RabbitMQ with
 * the management and shovel plugins, and deleted at the end: both contenders run against it.
 *
 * <pre>
 * ./mvnw -pl retry-operations -am verify -Pbenchmark-move -Dbenchmark.args="--messages 20000 --rounds 3"
 * </pre>
 *
 * <p>{@code --queue-types classic,quorum} chooses the cases (both by default).
 */
public final class MoveBenchmark {

    private static final String VHOST = "move-benchmark";

    private MoveBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int messages = intOption(args, "--messages", 20_000);
        int rounds = intOption(args, "--rounds", 3);
        int size = intOption(args, "--size", 1_024);
        long settle = intOption(args, "--settle-ms", 2_000);
        List<String> types = List.of(option(args, "--queue-types", "classic,quorum").split(","));
        try (LocalNode node = LocalNode.withPlugins("move-benchmark", List.of("rabbitmq_shovel",
                "rabbitmq_shovel_management"))) {
            Broker broker = node.broker();
            TestManagement management = broker.management();
            management.createVhost(VHOST, broker.username());
            ConnectionFactory factory = broker.connectionFactory(VHOST);
            factory.setAutomaticRecoveryEnabled(false);
            try (Connection connection = factory.newConnection("move-benchmark")) {
                Bench bench = new Bench(connection, management, new byte[size], settle);
                System.out.printf(Locale.ROOT, "Move benchmark against %s (RabbitMQ %s): %,d persistent messages of %d "
                        + "bytes a move, %d rounds after a warm-up%n%n", broker.origin(), broker.version(), messages, size,
                        rounds);
                System.out.println("| queues | round | first | mover: msg/s | shovel: msg/s | mover / shovel |");
                System.out.println("|---|---|---|---|---|---|");
                List<String> medians = new ArrayList<>();
                for (String type : types) {
                    bench.mover(type, "warm-up", messages / 4);
                    bench.shovel(type, "warm-up", messages / 4);
                    double[] movers = new double[rounds];
                    double[] shovels = new double[rounds];
                    double[] ratios = new double[rounds];
                    for (int round = 1; round <= rounds; round++) {
                        boolean moverFirst = round % 2 == 1;
                        String name = "r" + round;
                        if (moverFirst) {
                            movers[round - 1] = bench.mover(type, name, messages);
                            shovels[round - 1] = bench.shovel(type, name, messages);
                        } else {
                            shovels[round - 1] = bench.shovel(type, name, messages);
                            movers[round - 1] = bench.mover(type, name, messages);
                        }
                        ratios[round - 1] = movers[round - 1] / shovels[round - 1];
                        System.out.printf(Locale.ROOT, "| %s | %d | %s | %,.0f | %,.0f | %.2f× |%n", type, round,
                                moverFirst ? "mover" : "shovel", movers[round - 1], shovels[round - 1],
                                ratios[round - 1]);
                    }
                    medians.add(String.format(Locale.ROOT, "%s: the mover %,.0f msg/s, the shovel %,.0f msg/s; "
                            + "mover / shovel %.2f× (rounds %.2f–%.2f×)", type, median(movers), median(shovels),
                            median(ratios), min(ratios), max(ratios)));
                }
                System.out.println();
                medians.forEach(line -> System.out.println("median, " + line));
            }
        }
        System.exit(0);
    }

    /** Fills queues and times each contender moving them. */
    private record Bench(Connection connection, TestManagement management, byte[] body, long settle) {

        double mover(String type, String round, int messages) throws Exception {
            String source = type + "-" + round + "-mover-source";
            String destination = type + "-" + round + "-mover-destination";
            try (Channel channel = prepare(type, source, destination, messages)) {
                long began = System.nanoTime();
                MoveReport report = MessageMover.of(connection).move(source, destination, HeaderRewrite.asDelivered(),
                        MoveOptions.defaults());
                double seconds = (System.nanoTime() - began) / 1e9;
                check(report.moved() == messages && report.ending() == MoveReport.Ending.DRAINED,
                        "the mover moved " + report);
                check(channel.messageCount(destination) == messages, destination + " holds "
                        + channel.messageCount(destination) + " of " + messages);
                channel.queueDelete(source);
                channel.queueDelete(destination);
                return messages / seconds;
            }
        }

        double shovel(String type, String round, int messages) throws Exception {
            String source = type + "-" + round + "-shovel-source";
            String destination = type + "-" + round + "-shovel-destination";
            String parameter = "api/parameters/shovel/" + TestManagement.encode(VHOST) + "/" + source;
            try (Channel channel = prepare(type, source, destination, messages)) {
                String uri = "amqp:///" + TestManagement.encode(VHOST);
                String arguments = "{\"x-queue-type\": \"" + type + "\"}";
                long began = System.nanoTime();
                management.put(parameter, """
                        {"value": {"src-protocol": "amqp091", "src-uri": "%s", "src-queue": "%s", "src-queue-args": %s,
                          "dest-protocol": "amqp091", "dest-uri": "%s", "dest-queue": "%s", "dest-queue-args": %s,
                          "src-delete-after": "queue-length", "ack-mode": "on-confirm", "src-prefetch-count": 1000}}"""
                        .formatted(uri, source, arguments, uri, destination, arguments));
                long deadline = began + 600_000_000_000L;
                while (channel.messageCount(destination) < messages) {
                    check(System.nanoTime() < deadline, "the shovel did not move " + messages + " messages in 10 min");
                    Thread.sleep(2);
                }
                double seconds = (System.nanoTime() - began) / 1e9;
                while (parameterExists(parameter) || channel.messageCount(source) > 0) {
                    check(System.nanoTime() < deadline, "the shovel did not end in 10 min");
                    Thread.sleep(50);
                }
                check(channel.messageCount(destination) == messages, destination + " holds "
                        + channel.messageCount(destination) + " of " + messages);
                channel.queueDelete(source);
                channel.queueDelete(destination);
                return messages / seconds;
            }
        }

        /** Declares both queues, fills the source, and lets the broker settle; returns a channel on the vhost. */
        private Channel prepare(String type, String source, String destination, int messages) throws Exception {
            Channel channel = connection.createChannel();
            Map<String, Object> arguments = Map.of("x-queue-type", type);
            channel.queueDeclare(source, true, false, false, arguments);
            channel.queueDeclare(destination, true, false, false, arguments);
            channel.confirmSelect();
            for (int n = 0; n < messages; n++) {
                channel.basicPublish("", source, true, new AMQP.BasicProperties.Builder().deliveryMode(2)
                        .messageId("m-" + n).build(), body);
                if (n % 1_000 == 999) {
                    channel.waitForConfirmsOrDie(60_000);
                }
            }
            channel.waitForConfirmsOrDie(60_000);
            check(channel.messageCount(source) == messages, source + " was not filled");
            Thread.sleep(settle);
            return channel;
        }

        private boolean parameterExists(String parameter) throws IOException {
            try {
                management.get(parameter);
                return true;
            } catch (TestManagement.StatusException e) {
                if (e.status() == 404) {
                    return false;
                }
                throw e;
            }
        }
    }

    private static void check(boolean condition, String problem) {
        if (!condition) {
            throw new IllegalStateException(problem);
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    private static double min(double[] values) {
        return Arrays.stream(values).min().orElse(Double.NaN);
    }

    private static double max(double[] values) {
        return Arrays.stream(values).max().orElse(Double.NaN);
    }

    private static String option(String[] args, String name, String fallback) {
        for (int index = 0; index < args.length - 1; index++) {
            if (args[index].equals(name)) {
                return args[index + 1];
            }
        }
        return fallback;
    }

    private static int intOption(String[] args, String name, int fallback) {
        return Integer.parseInt(option(args, name, String.valueOf(fallback)));
    }
}
