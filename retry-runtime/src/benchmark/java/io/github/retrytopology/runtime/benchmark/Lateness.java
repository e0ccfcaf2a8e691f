package io.github.retrytopology.runtime.benchmark;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.retrytopology.model.Protocol;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.decision.Durations;
import io.github.retrytopology.runtime.consumer.Routes;
import io.github.retrytopology.runtime.consumer.ServiceConsumer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * How late retries arrive: messages published at a steady 1,000 a second fail once, twice or three times, so that
 * the service's three delays hold messages at once, in three tiers or in the service's queue, where the broker
 * holds them back (its linear delay over AMQP 0.9.1, a delivery time per retry over AMQP 1.0); a retry's lateness
 * is the time from its failure to its next delivery, less its delay.
 */
final class Lateness {

    private static final int RATE = 1_000;
    private static final int SECONDS = 10;

    private Lateness() {
    }

    static void run(ConsumerBenchmark benchmark, Service service) throws Exception {
        List<Duration> delays = delays(service);
        int retries = delays.size();
        System.out.printf(Locale.ROOT, "== lateness: %,d messages paced at %,d/s, failing 1 to %d times, delayed %s "
                + "by the %s; milliseconds late (p50 / p99 / max)%n", RATE * SECONDS, RATE, retries,
                delays.stream().map(Durations::format).toList(), service.protocol() == Protocol.AMQP_1_0
                        ? "broker, a delivery time each (AMQP 1.0)" : service.delayBackend().id());
        List<List<Double>> p99s = new ArrayList<>();
        for (int retry = 0; retry < retries; retry++) {
            p99s.add(new ArrayList<>());
        }
        for (int round = 0; round < benchmark.options().rounds(); round++) {
            double[][] late = once(benchmark, service);
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  round %d", round + 1));
            for (int retry = 0; retry < retries; retry++) {
                double[] sorted = late[retry].clone();
                Arrays.sort(sorted);
                p99s.get(retry).add(percentile(sorted, 0.99));
                line.append(String.format(Locale.ROOT, "   retry %d (%s): %.1f / %.1f / %.1f", retry + 1,
                        Durations.format(delays.get(retry)), percentile(sorted, 0.5), percentile(sorted, 0.99),
                        sorted[sorted.length - 1]));
            }
            System.out.println(line);
        }
        StringBuilder medians = new StringBuilder("  median p99:");
        for (int retry = 0; retry < retries; retry++) {
            medians.append(String.format(Locale.ROOT, "  retry %d %.1f ms (%.1f-%.1f)", retry + 1,
                    Report.median(p99s.get(retry)), Report.min(p99s.get(retry)), Report.max(p99s.get(retry))));
        }
        System.out.println(medians);
        System.out.println();
    }

    /** The delay before each retry, retry 1 first, whichever backend waits it. */
    private static List<Duration> delays(Service service) {
        List<Duration> delays = new ArrayList<>();
        for (int retry = 1; retry < service.retryPolicy().maxAttempts(); retry++) {
            delays.add(service.retryPolicy().delayBefore(retry));
        }
        return delays;
    }

    /** One paced run; returns, per retry, how late each of its retries arrived, in milliseconds. */
    private static double[][] once(ConsumerBenchmark benchmark, Service service) throws Exception {
        int messages = RATE * SECONDS;
        List<Duration> delays = delays(service);
        int retries = delays.size();
        long[][] failedAt = new long[messages][retries + 1];
        long[][] arrivedAt = new long[messages][retries + 2];
        benchmark.purge(service);
        Counter counter = new Counter(messages);
        Routes.Builder routes = Routes.builder(service);
        service.routes().forEach(route -> routes.on(route.key().value(), context -> {
            long now = System.nanoTime();
            int index = ConsumerBenchmark.index(context.body());
            int attempt = context.attempt();
            arrivedAt[index][attempt] = now;
            if (attempt <= 1 + index % retries) {
                failedAt[index][attempt] = System.nanoTime();
                throw Contender.FAILURE;
            }
            counter.done();
        }));
        try (ConsumerBenchmark.Connections connections = benchmark.connections("lateness", service)) {
            ServiceConsumer consumer = ConsumerBenchmark.startRuntime(connections, routes.build(),
                    benchmark.options(), List.of(), List.of());
            publishPaced(benchmark, service, messages);
            if (!counter.await(benchmark.options().timeoutSeconds())) {
                throw new IllegalStateException("only " + counter.count() + " of " + messages + " succeeded");
            }
            consumer.stop(Duration.ofSeconds(30));
        }
        double[][] late = new double[retries][];
        for (int retry = 1; retry <= retries; retry++) {
            long delay = delays.get(retry - 1).toNanos();
            List<Double> values = new ArrayList<>();
            for (int index = 0; index < messages; index++) {
                if (1 + index % retries >= retry) {
                    values.add((arrivedAt[index][retry + 1] - failedAt[index][retry] - delay) / 1e6);
                }
            }
            late[retry - 1] = values.stream().mapToDouble(Double::doubleValue).toArray();
        }
        return late;
    }

    private static void publishPaced(ConsumerBenchmark benchmark, Service service, int messages) throws Exception {
        byte[] padding = new byte[Math.max(0, benchmark.options().size() - 16)];
        Arrays.fill(padding, (byte) 'x');
        try (Connection connection = benchmark.connect("paced-publisher")) {
            Channel channel = connection.createChannel();
            channel.confirmSelect();
            long start = System.nanoTime();
            long every = 1_000_000_000L / RATE;
            for (int i = 0; i < messages; i++) {
                long due = start + i * every;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                channel.basicPublish(benchmark.spec().exchange(), service.routes().get(0).key().value(), false,
                        ConsumerBenchmark.persistent(), ConsumerBenchmark.body(i, true, padding));
            }
            channel.waitForConfirmsOrDie(60_000);
        }
    }

    private static double percentile(double[] sorted, double fraction) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(fraction * sorted.length) - 1)];
    }
}
