package io.github.retrytopology.runtime.benchmark;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.amqp.Consumer;
import io.github.retrytopology.model.Protocol;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.decision.DelayBackend;
import io.github.retrytopology.model.decision.Durations;
import io.github.retrytopology.runtime.consumer.Routes;
import io.github.retrytopology.runtime.consumer.ServiceConsumer;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The consumer's steady-state throughput while 10% of the messages fail once and come back after the service's
 * delay (a second, or 10 s), against the same run without failures: handler calls per second from
 * 200 ms past that delay after the start (1.2 s), when the retries flow back in among the fresh messages, until the
 * last fresh message is handled; the retries that come back after that are outside the window. Where the window
 * opens later, after a longer delay, the runs have as many times more messages (8.5 times for 10 s), so that the
 * window takes the same share of a run. A raw client, retrying by hand as the service's delay asks (through the
 * same tier, rejecting with requeue, or settling with a delivery time over AMQP 1.0), runs the same rounds;
 * {@link BrokerCosts} then measures what the broker's side of a retry costs, whoever consumes.
 */
final class Mixed {

    /** Where the window opens with a delay of a second: the runs' messages grow with a later opening. */
    private static final long WINDOW_START = 1_200_000_000L;
    /** How long after the delay the window opens. */
    private static final long PAST_DELAY = 200_000_000L;

    private Mixed() {
    }

    static void run(ConsumerBenchmark benchmark, Service service) throws Exception {
        ConsumerBenchmark.Options options = benchmark.options();
        Duration delay = service.retryPolicy().delayBefore(1);
        long windowStart = delay.toNanos() + PAST_DELAY;
        int messages = (int) Math.round(options.messages() * 2.0 * Math.max(1.0, windowStart / (double) WINDOW_START));
        boolean amqp10 = service.protocol() == Protocol.AMQP_1_0;
        boolean byBroker = service.delayBackend() == DelayBackend.BROKER;
        System.out.printf(Locale.ROOT, "== mixed: %,d messages, 10%% failing once with a delay of %s by the %s, "
                + "against none failing; handler calls per second from %.1f s until the last fresh message%n", messages,
                Durations.format(delay), amqp10 ? "broker, a delivery time each (AMQP 1.0)"
                        : service.delayBackend().id(), windowStart / 1e9);
        Start raw = amqp10 ? Mixed::rawAmqp10 : byBroker ? Mixed::rawRejecting : Mixed::raw;
        for (Consuming consuming : List.of(new Consuming("retry-runtime", Mixed::runtime),
                new Consuming(amqp10 ? "raw AMQP 1.0 client" : "raw amqp-client", raw))) {
            if (!options.only().isEmpty() && !options.only().equals(consuming.name())) {
                continue;
            }
            System.out.println("  " + consuming.name());
            once(benchmark, service, consuming, Math.max(2_000, messages / 10), 0, windowStart); // warm-up, both
            once(benchmark, service, consuming, Math.max(2_000, messages / 10), 10, windowStart);
            List<Double> clean = new ArrayList<>();
            List<Double> failing = new ArrayList<>();
            List<Double> ratios = new ArrayList<>();
            List<Double> brokerPerFailure = new ArrayList<>();
            List<Run> nones = new ArrayList<>();
            List<Run> tenths = new ArrayList<>();
            for (int round = 0; round < options.rounds(); round++) {
                Run none;
                Run tenth;
                if (round % 2 == 0) {
                    none = once(benchmark, service, consuming, messages, 0, windowStart);
                    tenth = once(benchmark, service, consuming, messages, 10, windowStart);
                } else {
                    tenth = once(benchmark, service, consuming, messages, 10, windowStart);
                    none = once(benchmark, service, consuming, messages, 0, windowStart);
                }
                if (Double.isNaN(none.rate()) || Double.isNaN(tenth.rate())) {
                    throw new IllegalStateException(String.format(Locale.ROOT, "%,d messages took less than the %.1f s "
                            + "before the measured window opens: run with more --messages", messages, windowStart / 1e9));
                }
                nones.add(none);
                tenths.add(tenth);
                clean.add(none.rate());
                failing.add(tenth.rate());
                ratios.add(tenth.rate() / none.rate());
                brokerPerFailure.add(tenth.brokerPerFailure(none, messages / 10));
                System.out.printf(Locale.ROOT, "  round %d  none failing %s   10%% failing %s   ratio %.2f%n",
                        round + 1, none, tenth, tenth.rate() / none.rate());
            }
            System.out.printf(Locale.ROOT, "  medians: none failing %.0f calls/s, 10%% failing %.0f calls/s; ratio "
                    + "%.2fx (%.2f-%.2f); broker CPU per failure %.0f µs (%.0f-%.0f)%n", Report.median(clean),
                    Report.median(failing), Report.median(ratios), Report.min(ratios), Report.max(ratios),
                    Report.median(brokerPerFailure), Report.min(brokerPerFailure), Report.max(brokerPerFailure));
            // In some runs the broker spends half as much CPU again on every call, whoever consumes (one run in two
            // or three on RabbitMQ 4.3.6, wherever it falls), and a round's ratio then swings from 0.45 to 1.45: the
            // fastest runs, and those in which the broker spent least, show what each path costs without that.
            Run fastestNone = Collections.max(nones, Comparator.comparingDouble(Run::rate));
            Run fastestTenth = Collections.max(tenths, Comparator.comparingDouble(Run::rate));
            Comparator<Run> byBrokerCpu = Comparator.comparingDouble(run -> run.cpu().brokerMicros());
            Run leanestTenth = Collections.min(tenths, byBrokerCpu);
            System.out.printf(Locale.ROOT, "  fastest runs: none failing %.0f calls/s, 10%% failing %.0f calls/s; "
                    + "ratio %.2fx; the broker's leanest runs: %.0f µs of its CPU per failure%n", fastestNone.rate(),
                    fastestTenth.rate(), fastestTenth.rate() / fastestNone.rate(),
                    leanestTenth.brokerPerFailure(Collections.min(nones, byBrokerCpu), messages / 10));
        }
        if (options.only().isEmpty() || options.only().equals("broker")) {
            BrokerCosts.run(benchmark, service);
        }
        System.out.println();
    }

    /**
     * One run: its steady-state handler calls per second, and the CPU that this JVM and the broker spent per
     * handler call over the whole run.
     */
    private record Run(double rate, Result cpu, int calls) {

        /** What the broker spent on each failure: its CPU over this run, less that over a run without failures. */
        double brokerPerFailure(Run none, int failures) {
            return (cpu.brokerMicros() * calls - none.cpu.brokerMicros() * none.calls) / failures;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%6.0f calls/s (JVM %4.1f, broker %s per call)", rate, cpu.jvmMicros(),
                    cpu.brokerText().replace(" µs/msg", " µs").trim());
        }
    }

    /** One way of consuming the mixed messages: started on a connection, it tells {@code calls} of each call. */
    private record Consuming(String name, Start start) {
    }

    @FunctionalInterface
    private interface Start {
        Contender.Running start(ConsumerBenchmark.Connections connections, Service service,
                ConsumerBenchmark.Options options, Calls calls) throws Exception;
    }

    /** Every handler call, when it happened, and whether the message is done with. */
    private static final class Calls {
        final long[] at;
        final AtomicInteger count = new AtomicInteger();
        final Counter done;
        volatile long lastFresh;

        Calls(int messages) {
            at = new long[messages * 2];
            done = new Counter(messages);
        }

        /** Records a call of attempt {@code attempt}; returns whether the handler is to fail it. */
        boolean call(int attempt, byte[] body) {
            long now = System.nanoTime();
            at[count.getAndIncrement()] = now;
            if (attempt > 1) {
                return false;
            }
            synchronized (this) {
                lastFresh = Math.max(lastFresh, now);
            }
            return ConsumerBenchmark.failing(body);
        }
    }

    /** One run with {@code percent}% of the messages failing once; its window opens {@code windowStart} in. */
    private static Run once(ConsumerBenchmark benchmark, Service service, Consuming consuming, int messages,
            int percent, long windowStart) throws Exception {
        benchmark.purge(service);
        benchmark.publish(service.routes().get(0).key().value(), messages, i -> percent > 0 && i % (100 / percent) == 0);
        Calls calls = new Calls(messages);
        try (ConsumerBenchmark.Connections connections = benchmark.connections("mixed", service)) {
            Cpu before = Cpu.now(benchmark.brokerCpu());
            long start = before.at();
            Contender.Running running = consuming.start().start(connections, service, benchmark.options(), calls);
            if (!calls.done.await(benchmark.options().timeoutSeconds())) {
                throw new IllegalStateException("only " + calls.done.count() + " of " + messages + " succeeded");
            }
            Cpu after = Cpu.now(benchmark.brokerCpu());
            running.stop();
            long from = start + windowStart;
            long to = calls.lastFresh;
            int inWindow = 0;
            for (int i = 0; i < calls.count.get(); i++) {
                if (calls.at[i] >= from && calls.at[i] <= to) {
                    inWindow++;
                }
            }
            // A run too short for the window has no rate: a warm-up may be, a measured run may not.
            double rate = to > from ? inWindow / ((to - from) / 1e9) : Double.NaN;
            return new Run(rate, Result.of(calls.count.get(), before, after, after.at()), calls.count.get());
        }
    }

    /** This project's consumer, over the protocol the service names. */
    private static Contender.Running runtime(ConsumerBenchmark.Connections connections, Service service,
            ConsumerBenchmark.Options options, Calls calls) throws Exception {
        Routes.Builder routes = Routes.builder(service);
        service.routes().forEach(route -> routes.on(route.key().value(), context -> {
            if (calls.call(context.attempt(), context.body())) {
                throw Contender.FAILURE;
            }
            calls.done.done();
        }));
        ServiceConsumer consumer = ConsumerBenchmark.startRuntime(connections, routes.build(), options, List.of(),
                List.of());
        return () -> consumer.stop(Duration.ofSeconds(30));
    }

    /**
     * RabbitMQ's AMQP 1.0 client doing the same by hand: a message that fails is settled {@code modified}, failed,
     * with a delivery time the service's delay ahead ({@code delayedRetry(delay, true)}), its attempt read from its
     * delivery count; any other is accepted.
     */
    private static Contender.Running rawAmqp10(ConsumerBenchmark.Connections connections, Service service,
            ConsumerBenchmark.Options options, Calls calls) {
        Duration delay = service.retryPolicy().delayBefore(1);
        List<Consumer> consumers = new ArrayList<>();
        for (int i = 0; i < options.consumers(); i++) {
            consumers.add(connections.amqp10().consumerBuilder()
                    .queue(service.queue())
                    .initialCredits(options.prefetch())
                    .messageHandler((context, message) -> {
                        if (calls.call((int) message.deliveryCount() + 1, message.body())) {
                            context.delayedRetry(delay, true);
                        } else {
                            calls.done.done();
                            context.accept();
                        }
                    })
                    .build());
        }
        return () -> consumers.forEach(Consumer::close);
    }

    /**
     * The raw Java client doing the same by hand where the broker delays retries: a message that fails is rejected
     * with requeue, its attempt read from {@code x-delivery-count}; any other is acknowledged.
     */
    private static Contender.Running rawRejecting(ConsumerBenchmark.Connections connections, Service service,
            ConsumerBenchmark.Options options, Calls calls) throws Exception {
        List<Channel> channels = Contender.subscribe(connections.amqp091(), service.queue(), options,
                (channel, envelope, properties, body) -> {
                    Map<String, Object> headers = properties.getHeaders();
                    Object count = headers == null ? null : headers.get("x-delivery-count");
                    int attempt = count instanceof Number failed ? failed.intValue() + 1 : 1;
                    if (calls.call(attempt, body)) {
                        channel.basicReject(envelope.getDeliveryTag(), true);
                    } else {
                        calls.done.done();
                        channel.basicAck(envelope.getDeliveryTag(), false);
                    }
                });
        return () -> {
            for (Channel channel : channels) {
                channel.abort();
            }
        };
    }

    /**
     * The raw Java client doing the same by hand: a message that fails is published to the service's first tier
     * with a header counting the attempt, and acknowledged once the broker confirms that; any other is
     * acknowledged at once.
     */
    private static Contender.Running raw(ConsumerBenchmark.Connections connections, Service service,
            ConsumerBenchmark.Options options, Calls calls) throws Exception {
        Connection connection = connections.amqp091();
        String tier = service.tier(1).queue();
        List<Channel> channels = new ArrayList<>();
        for (int i = 0; i < options.consumers(); i++) {
            Channel channel = connection.createChannel();
            channels.add(channel);
            channel.basicQos(options.prefetch());
            channel.confirmSelect();
            ConcurrentNavigableMap<Long, Long> pending = new ConcurrentSkipListMap<>();
            channel.addConfirmListener((sequence, multiple) -> {
                for (long tag : Contender.take(pending, sequence, multiple)) {
                    channel.basicAck(tag, false);
                }
            }, (sequence, multiple) -> {
                for (long tag : Contender.take(pending, sequence, multiple)) {
                    channel.basicNack(tag, false, true);
                }
            });
            channel.basicConsume(service.queue(), false, new DefaultConsumer(channel) {
                @Override
                public void handleDelivery(String consumerTag, Envelope envelope, AMQP.BasicProperties properties,
                        byte[] body) throws IOException {
                    Map<String, Object> headers = properties.getHeaders();
                    int attempt = headers != null && headers.get("attempts") instanceof Integer done ? done + 1 : 1;
                    if (!calls.call(attempt, body)) {
                        calls.done.done();
                        channel.basicAck(envelope.getDeliveryTag(), false);
                        return;
                    }
                    AMQP.BasicProperties retry = properties.builder().headers(Map.of("attempts", attempt))
                            .deliveryMode(2).build();
                    synchronized (pending) {
                        pending.put(channel.getNextPublishSeqNo(), envelope.getDeliveryTag());
                        channel.basicPublish("", tier, true, retry, body);
                    }
                }
            });
        }
        return () -> {
            for (Channel channel : channels) {
                channel.abort();
            }
        };
    }
}
