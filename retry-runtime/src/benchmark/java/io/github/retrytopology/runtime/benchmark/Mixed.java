package io.github.retrytopology.runtime.benchmark;

import com.rabbitmq.client.Connection;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.consumer.Routes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The consumer's steady-state throughput while 10% of the messages fail once and come back a second later,
 * against the same run without failures: handler calls per second from 1.2 s after the start, when the retries
 * flow back in among the fresh messages, until the last fresh message is handled.
 */
final class Mixed {

    private static final long WINDOW_START = 1_200_000_000L;

    private Mixed() {
    }

    static void run(ConsumerBenchmark benchmark, Service service) throws Exception {
        ConsumerBenchmark.Options options = benchmark.options();
        int messages = options.messages() * 2;
        System.out.printf(Locale.ROOT, "== mixed: %,d messages, 10%% failing once with a delay of %s, against none "
                + "failing; handler calls per second from 1.2 s until the last fresh message%n", messages,
                service.tier(1).delay());
        once(benchmark, service, Math.max(2_000, messages / 10), 0);
        List<Double> clean = new ArrayList<>();
        List<Double> failing = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        for (int round = 0; round < options.rounds(); round++) {
            Run none;
            Run tenth;
            if (round % 2 == 0) {
                none = once(benchmark, service, messages, 0);
                tenth = once(benchmark, service, messages, 10);
            } else {
                tenth = once(benchmark, service, messages, 10);
                none = once(benchmark, service, messages, 0);
            }
            clean.add(none.rate());
            failing.add(tenth.rate());
            ratios.add(tenth.rate() / none.rate());
            System.out.printf(Locale.ROOT, "  round %d  none failing %s   10%% failing %s   ratio %.2f%n", round + 1,
                    none, tenth, tenth.rate() / none.rate());
        }
        System.out.printf(Locale.ROOT, "  medians: none failing %.0f calls/s, 10%% failing %.0f calls/s; ratio %.2fx "
                + "(%.2f-%.2f)%n%n", Report.median(clean), Report.median(failing), Report.median(ratios),
                Report.min(ratios), Report.max(ratios));
    }

    /**
     * One run: its steady-state handler calls per second, and the CPU that this JVM and the broker spent per
     * handler call over the whole run.
     */
    private record Run(double rate, Result cpu) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%6.0f calls/s (JVM %4.1f, broker %s per call)", rate, cpu.jvmMicros(),
                    cpu.brokerText().replace(" µs/msg", " µs").trim());
        }
    }

    /** One run with {@code percent}% of the messages failing once. */
    private static Run once(ConsumerBenchmark benchmark, Service service, int messages, int percent)
            throws Exception {
        benchmark.purge(service);
        benchmark.publish(service.routes().get(0).key().value(), messages, i -> percent > 0 && i % (100 / percent) == 0);
        long[] calls = new long[messages * 2];
        AtomicInteger called = new AtomicInteger();
        long[] lastFresh = new long[1];
        Counter counter = new Counter(messages);
        Routes.Builder routes = Routes.builder(service);
        service.routes().forEach(route -> routes.on(route.key().value(), context -> {
            long now = System.nanoTime();
            calls[called.getAndIncrement()] = now;
            if (context.attempt() == 1) {
                lastFresh[0] = Math.max(lastFresh[0], now);
            }
            if (context.attempt() == 1 && ConsumerBenchmark.failing(context.body())) {
                throw Contender.FAILURE;
            }
            counter.done();
        }));
        try (Connection connection = benchmark.connect("mixed")) {
            Cpu before = Cpu.now(benchmark.brokerCpu());
            long start = before.at();
            RetryingConsumer consumer = RetryingConsumer.builder(connection, routes.build())
                    .prefetch(benchmark.options().prefetch()).consumers(benchmark.options().consumers()).start();
            if (!counter.await(benchmark.options().timeoutSeconds())) {
                throw new IllegalStateException("only " + counter.count() + " of " + messages + " succeeded");
            }
            Cpu after = Cpu.now(benchmark.brokerCpu());
            consumer.stop(Duration.ofSeconds(30));
            long from = start + WINDOW_START;
            long to = lastFresh[0];
            int inWindow = 0;
            for (int i = 0; i < called.get(); i++) {
                if (calls[i] >= from && calls[i] <= to) {
                    inWindow++;
                }
            }
            return new Run(inWindow / ((to - from) / 1e9), Result.of(called.get(), before, after, after.at()));
        }
    }
}
