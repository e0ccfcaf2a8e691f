package io.github.retrytopology.runtime.benchmark;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the broker alone spends on the mixed path, whoever consumes: its CPU per message for a delivery and its
 * acknowledgement, for a failure's trip through the tier (the publish with a confirm, and the tier's dead-lettering
 * back to the queue), and for the delivery of a dead-lettered message. From these, what a consumer that cost
 * nothing would reach with 10% failing once, against none failing, when CPU is what limits:
 * {@code 1.1 d / (d + 0.1 (trip + d'))} handler calls per second, against {@code 1 / d}. A consumer's own CPU
 * adds to both runs alike and so raises that ratio: the benchmark also prints how much CPU per call a consumer
 * whose failures cost it nothing more would have to spend for the ratio to reach 0.9.
 */
final class BrokerCosts {

    private BrokerCosts() {
    }

    /** The broker's CPU per message of each step, in microseconds. */
    record PerMessage(double delivery, double trip, double deadLetteredDelivery) {

        /** Handler calls per second with {@code percent}% failing once, against none failing. */
        double ratio(int percent) {
            double share = percent / 100.0;
            return (1 + share) * delivery / (delivery + share * (trip + deadLetteredDelivery));
        }

        /**
         * The CPU that a consumer would have to spend on each handler call, the broker's aside, for the ratio to
         * reach {@code target} with {@code percent}% failing, if a failure cost it nothing more than its call:
         * {@code c} such that {@code (1 + s)(d + c) / (d + c + s (trip + d' + c))} is the target.
         */
        double consumerCostFor(double target, int percent) {
            double share = percent / 100.0;
            return (target * share * (trip + deadLetteredDelivery) - (1 + share - target) * delivery)
                    / ((1 + share) * (1 - target));
        }
    }

    static void run(ConsumerBenchmark benchmark, Service service) throws Exception {
        if (!benchmark.brokerCpu().available()) {
            System.out.println("  the broker alone: not measurable here (its CPU is read from /proc)");
            return;
        }
        int messages = benchmark.options().messages();
        System.out.printf(Locale.ROOT, "  the broker alone (%,d messages per step; µs of its CPU per message)%n",
                messages);
        measure(benchmark, service, Math.max(2_000, messages / 10)); // warm-up
        List<Double> ratios = new ArrayList<>();
        List<Double> needed = new ArrayList<>();
        for (int round = 0; round < benchmark.options().rounds(); round++) {
            PerMessage costs = measure(benchmark, service, messages);
            ratios.add(costs.ratio(10));
            needed.add(costs.consumerCostFor(0.9, 10));
            System.out.printf(Locale.ROOT, "  round %d  delivery %5.1f   tier trip %6.1f   dead-lettered delivery %5.1f"
                    + "   a free consumer's ratio %.2f%n", round + 1, costs.delivery(), costs.trip(),
                    costs.deadLetteredDelivery(), costs.ratio(10));
        }
        System.out.printf(Locale.ROOT, "  with 10%% failing, a consumer costing nothing: %.2fx (%.2f-%.2f); to reach "
                + "0.90x a consumer would have to spend %.0f µs of CPU per call (%.0f-%.0f)%n", Report.median(ratios),
                Report.min(ratios), Report.max(ratios), Report.median(needed), Report.min(needed), Report.max(needed));
    }

    private static PerMessage measure(ConsumerBenchmark benchmark, Service service, int messages) throws Exception {
        BrokerCpu cpu = benchmark.brokerCpu();
        benchmark.purge(service);
        benchmark.publish(service.routes().get(0).key().value(), messages, i -> false);
        try (Connection connection = benchmark.connect("broker-ceiling")) {
            long start = cpu.nanos();
            consume(connection, service, benchmark.options(), messages);
            double delivery = (cpu.nanos() - start) / 1e3 / messages;

            start = cpu.nanos();
            publishToTier(connection, service, benchmark.options(), messages);
            awaitDeadLettered(connection, service, benchmark.options(), messages);
            double trip = (cpu.nanos() - start) / 1e3 / messages;

            start = cpu.nanos();
            consume(connection, service, benchmark.options(), messages);
            double deadLettered = (cpu.nanos() - start) / 1e3 / messages;
            return new PerMessage(delivery, trip, deadLettered);
        }
    }

    /** Publishes to the service's first tier as the raw contender retries: with its one header, confirmed. */
    private static void publishToTier(Connection connection, Service service, ConsumerBenchmark.Options options,
            int messages) throws Exception {
        Channel channel = connection.createChannel();
        channel.confirmSelect();
        byte[] padding = new byte[Math.max(0, options.size() - 16)];
        Arrays.fill(padding, (byte) 'x');
        AMQP.BasicProperties properties = ConsumerBenchmark.persistent().builder()
                .headers(Map.of("attempts", 1)).build();
        for (int i = 0; i < messages; i++) {
            channel.basicPublish(Topology.DEFAULT_EXCHANGE, service.tier(1).queue(), true, properties,
                    ConsumerBenchmark.body(i, true, padding));
            if (i % 1_000 == 999) {
                channel.waitForConfirmsOrDie(60_000);
            }
        }
        channel.waitForConfirmsOrDie(60_000);
        channel.close();
    }

    /** Waits until the tier has dead-lettered every message back to the service's queue. */
    private static void awaitDeadLettered(Connection connection, Service service, ConsumerBenchmark.Options options,
            int messages) throws Exception {
        Channel channel = connection.createChannel();
        long deadline = System.nanoTime() + options.timeoutSeconds() * 1_000_000_000L;
        long back;
        while ((back = channel.queueDeclarePassive(service.queue()).getMessageCount()) < messages) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("only " + back + " of " + messages + " messages came back from "
                        + service.tier(1).queue() + " within " + options.timeoutSeconds() + " s");
            }
            Thread.sleep(20);
        }
        channel.close();
    }

    /**
     * Takes {@code messages} from the service's queue as the contenders do, acknowledging each. What comes beyond
     * the count (on RabbitMQ 4.3.6, once, more messages came back from the tier than were sent to it) is left alone.
     */
    private static void consume(Connection connection, Service service, ConsumerBenchmark.Options options,
            int messages) throws Exception {
        Counter counter = new Counter(messages);
        List<Channel> channels = Contender.subscribe(connection, service.queue(), options,
                (channel, envelope, properties, body) -> {
                    if (counter.count() >= messages) {
                        return; // more came back than were sent: left unacknowledged, for the next purge
                    }
                    channel.basicAck(envelope.getDeliveryTag(), false);
                    counter.done();
                });
        if (!counter.await(options.timeoutSeconds())) {
            throw new IllegalStateException("took only " + counter.count() + " of " + messages + " messages");
        }
        for (Channel channel : channels) {
            channel.abort(); // gives back what it holds beyond the count
        }
    }
}
