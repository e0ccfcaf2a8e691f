package io.github.retrytopology.runtime.benchmark;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.retrytopology.model.Protocol;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.decision.DelayBackend;
import io.github.retrytopology.model.decision.Durations;
import io.github.retrytopology.model.topology.Topology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the broker alone spends on the mixed path, whoever consumes: its CPU per message for a delivery and its
 * acknowledgement, and what a failure adds to that, by the service's way of delaying a retry:
 * <ul>
 *   <li><b>tier queues</b>: a failure's trip through the tier (the publish with a confirm, and the tier's
 *       dead-lettering back to the queue), then the delivery of the dead-lettered message, each step alone;
 *   <li><b>the broker's linear delay</b> (AMQP 0.9.1): a delivery rejected with requeue, held by the queue for its
 *       delay, delivered again and acknowledged;
 *   <li><b>a delivery time per message</b> (AMQP 1.0): a delivery settled {@code modified}, failed, with
 *       {@code x-opt-delivery-time} {@value #HELD_SECONDS} s ahead, held until then, delivered again and accepted.
 * </ul>
 * Where the broker holds the failures, a failure comes back while the step still fails fresh messages, so the step
 * does both, as the mixed path does, and what a failure adds is that step's CPU per message less a delivery's.
 * Every step holds a failure for a second: the tier's and the linear delay's are those of the services
 * {@code mixed} and {@code mixed-broker}, and the delivery time is given as much, so that the three compare.
 * From these, what a consumer that cost nothing would reach with 10% failing once, against none failing, when CPU
 * is what limits: {@code 1.1 d / (d + 0.1 f)} handler calls per second, against {@code 1 / d}, {@code f} being what
 * a failure adds. A consumer's own CPU adds to both runs alike and so raises that ratio: the benchmark also prints
 * how much CPU per call a consumer whose failures cost it nothing more would have to spend for the ratio to reach
 * 0.9.
 */
final class BrokerCosts {

    private static final long HELD_SECONDS = 1;

    private BrokerCosts() {
    }

    /** The broker's CPU per message, in microseconds: a delivery, and what a failure adds to it. */
    record PerMessage(double delivery, double failure) {

        /** Handler calls per second with {@code percent}% failing once, against none failing. */
        double ratio(int percent) {
            double share = percent / 100.0;
            return (1 + share) * delivery / (delivery + share * failure);
        }

        /**
         * The CPU that a consumer would have to spend on each handler call, the broker's aside, for the ratio to
         * reach {@code target} with {@code percent}% failing, if a failure cost it nothing more than its call:
         * {@code c} such that {@code (1 + s)(d + c) / (d + c + s (f + c))} is the target.
         */
        double consumerCostFor(double target, int percent) {
            double share = percent / 100.0;
            return (target * share * failure - (1 + share - target) * delivery) / ((1 + share) * (1 - target));
        }
    }

    /** One round's costs, and its steps as a line prints them. */
    private record Measured(PerMessage costs, String steps) {
    }

    static void run(ConsumerBenchmark benchmark, Service service) throws Exception {
        if (!benchmark.brokerCpu().available()) {
            System.out.println("  the broker alone: not measurable here (its CPU is read from /proc)");
            return;
        }
        int messages = benchmark.options().messages();
        System.out.printf(Locale.ROOT, "  the broker alone, %s (%,d messages per step; µs of its CPU per message)%n",
                failure(service), messages);
        measure(benchmark, service, Math.max(2_000, messages / 10)); // warm-up
        List<Double> ratios = new ArrayList<>();
        List<Double> needed = new ArrayList<>();
        List<Double> failures = new ArrayList<>();
        for (int round = 0; round < benchmark.options().rounds(); round++) {
            Measured measured = measure(benchmark, service, messages);
            PerMessage costs = measured.costs();
            ratios.add(costs.ratio(10));
            needed.add(costs.consumerCostFor(0.9, 10));
            failures.add(costs.failure());
            System.out.printf(Locale.ROOT, "  round %d  delivery %5.1f   %s   a failure adds %6.1f   a free "
                    + "consumer's ratio %.2f%n", round + 1, costs.delivery(), measured.steps(), costs.failure(),
                    costs.ratio(10));
        }
        System.out.printf(Locale.ROOT, "  a failure adds %.0f µs of the broker's CPU (%.0f-%.0f); with 10%% failing, a "
                + "consumer costing nothing: %.2fx (%.2f-%.2f); %s%n", Report.median(failures), Report.min(failures),
                Report.max(failures), Report.median(ratios), Report.min(ratios), Report.max(ratios),
                Report.median(needed) <= 0 ? "it reaches 0.90x without spending any CPU of its own"
                        : String.format(Locale.ROOT, "to reach 0.90x a consumer would have to spend %.0f µs of CPU "
                                + "per call (%.0f-%.0f)", Report.median(needed), Report.min(needed),
                                Report.max(needed)));
    }

    /** How a failure of this service reaches the broker, as the header line says it. */
    private static String failure(Service service) {
        if (service.protocol() == Protocol.AMQP_1_0) {
            return "a failure settled modified with a delivery time " + HELD_SECONDS + " s ahead (AMQP 1.0)";
        }
        if (service.delayBackend() == DelayBackend.BROKER) {
            return "a failure rejected with requeue, held " + Durations.format(service.retryPolicy().delayBefore(1))
                    + " by the queue's linear delay";
        }
        return "a failure published to its tier of " + Durations.format(service.tier(1).delay());
    }

    private static Measured measure(ConsumerBenchmark benchmark, Service service, int messages) throws Exception {
        if (service.protocol() == Protocol.AMQP_1_0) {
            return measureAmqp10(benchmark, service, messages);
        }
        if (service.delayBackend() == DelayBackend.BROKER) {
            return measureRejecting(benchmark, service, messages);
        }
        return measureTiers(benchmark, service, messages);
    }

    private static Measured measureTiers(ConsumerBenchmark benchmark, Service service, int messages)
            throws Exception {
        BrokerCpu cpu = benchmark.brokerCpu();
        benchmark.purge(service);
        benchmark.publish(service.routes().get(0).key().value(), messages, i -> false);
        try (Connection connection = benchmark.connect("broker-ceiling")) {
            long start = cpu.nanos();
            consume(connection, service, benchmark.options(), messages, Settle091.ACKNOWLEDGE);
            double delivery = (cpu.nanos() - start) / 1e3 / messages;

            start = cpu.nanos();
            publishToTier(connection, service, benchmark.options(), messages);
            awaitDeadLettered(connection, service, benchmark.options(), messages);
            double trip = (cpu.nanos() - start) / 1e3 / messages;

            start = cpu.nanos();
            consume(connection, service, benchmark.options(), messages, Settle091.ACKNOWLEDGE);
            double deadLettered = (cpu.nanos() - start) / 1e3 / messages;
            return new Measured(new PerMessage(delivery, trip + deadLettered), String.format(Locale.ROOT,
                    "tier trip %6.1f   dead-lettered delivery %5.1f", trip, deadLettered));
        }
    }

    /**
     * The broker's linear delay, over AMQP 0.9.1: deliveries acknowledged, then deliveries rejected with requeue,
     * each acknowledged when it comes back, as {@code mixed-broker}'s raw client does.
     */
    private static Measured measureRejecting(ConsumerBenchmark benchmark, Service service, int messages)
            throws Exception {
        BrokerCpu cpu = benchmark.brokerCpu();
        benchmark.purge(service);
        benchmark.publish(service.routes().get(0).key().value(), messages * 2, i -> false);
        try (Connection connection = benchmark.connect("broker-ceiling")) {
            long start = cpu.nanos();
            consume(connection, service, benchmark.options(), messages, Settle091.ACKNOWLEDGE);
            double delivery = (cpu.nanos() - start) / 1e3 / messages;

            start = cpu.nanos();
            consume(connection, service, benchmark.options(), messages, Settle091.REJECT_FIRST);
            double failedAndBack = (cpu.nanos() - start) / 1e3 / messages;
            return new Measured(new PerMessage(delivery, failedAndBack - delivery), String.format(Locale.ROOT,
                    "rejected, held and delivered again %6.1f", failedAndBack));
        }
    }

    /**
     * A delivery time per message, over AMQP 1.0: deliveries accepted, then deliveries settled {@code modified},
     * failed, with a delivery time {@value #HELD_SECONDS} s ahead, each accepted when it comes back, as
     * {@code mixed-amqp10}'s raw client does with the service's own delay.
     */
    private static Measured measureAmqp10(ConsumerBenchmark benchmark, Service service, int messages)
            throws Exception {
        BrokerCpu cpu = benchmark.brokerCpu();
        benchmark.purge(service);
        benchmark.publish(service.routes().get(0).key().value(), messages * 2, i -> false);
        try (com.rabbitmq.client.amqp.Connection connection = benchmark.connectAmqp10("broker-ceiling")) {
            long start = cpu.nanos();
            consumeAmqp10(connection, service, benchmark.options(), messages, false);
            double delivery = (cpu.nanos() - start) / 1e3 / messages;

            start = cpu.nanos();
            consumeAmqp10(connection, service, benchmark.options(), messages, true);
            double failedAndBack = (cpu.nanos() - start) / 1e3 / messages;
            return new Measured(new PerMessage(delivery, failedAndBack - delivery), String.format(Locale.ROOT,
                    "modified, held and delivered again %6.1f", failedAndBack));
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

    /** What a step over AMQP 0.9.1 does with each delivery. */
    private enum Settle091 {
        /** Acknowledges it: it counts. */
        ACKNOWLEDGE,
        /**
         * Rejects it with requeue on its first delivery, for the broker to hold; acknowledges it when it comes
         * back, and only then it counts.
         */
        REJECT_FIRST
    }

    /**
     * Takes {@code messages} from the service's queue as the contenders do, acknowledging each, after rejecting it
     * once if asked. What comes beyond the count (on RabbitMQ 4.3.6, once, more messages came back from the tier
     * than were sent to it) is left alone, and given back uncounted when the channels close.
     */
    private static void consume(Connection connection, Service service, ConsumerBenchmark.Options options,
            int messages, Settle091 settle) throws Exception {
        Counter counter = new Counter(messages);
        AtomicInteger taken = new AtomicInteger();
        List<Channel> channels = Contender.subscribe(connection, service.queue(), options,
                (channel, envelope, properties, body) -> {
                    Map<String, Object> headers = properties.getHeaders();
                    boolean first = headers == null || !(headers.get("x-delivery-count") instanceof Number);
                    if (settle == Settle091.REJECT_FIRST && first) {
                        channel.basicReject(envelope.getDeliveryTag(), true);
                        return;
                    }
                    if (taken.incrementAndGet() > messages) {
                        return; // beyond the count: left unacknowledged, given back when the channel closes
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

    /**
     * Takes {@code messages} from the service's queue over AMQP 1.0, accepting each, after settling it
     * {@code modified}, failed, with a delivery time {@value #HELD_SECONDS} s ahead on its first delivery if
     * {@code failFirst}. What comes beyond the count is left unsettled, and given back uncounted when the consumers
     * close.
     */
    private static void consumeAmqp10(com.rabbitmq.client.amqp.Connection connection, Service service,
            ConsumerBenchmark.Options options, int messages, boolean failFirst) throws Exception {
        Counter counter = new Counter(messages);
        AtomicInteger taken = new AtomicInteger();
        Duration held = Duration.ofSeconds(HELD_SECONDS);
        List<com.rabbitmq.client.amqp.Consumer> consumers = new ArrayList<>();
        try {
            for (int i = 0; i < options.consumers(); i++) {
                consumers.add(connection.consumerBuilder()
                        .queue(service.queue())
                        .initialCredits(options.prefetch())
                        .messageHandler((context, message) -> {
                            if (failFirst && message.deliveryCount() == 0) {
                                context.delayedRetry(held, true);
                                return;
                            }
                            if (taken.incrementAndGet() > messages) {
                                return; // beyond the count: left unsettled, given back when the consumer closes
                            }
                            context.accept();
                            counter.done();
                        })
                        .build());
            }
            if (!counter.await(options.timeoutSeconds())) {
                throw new IllegalStateException("took only " + counter.count() + " of " + messages + " messages");
            }
        } finally {
            consumers.forEach(com.rabbitmq.client.amqp.Consumer::close);
        }
    }
}
