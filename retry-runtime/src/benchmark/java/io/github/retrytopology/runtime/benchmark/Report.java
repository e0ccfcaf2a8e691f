package io.github.retrytopology.runtime.benchmark;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** Medians, spreads and the paired ratios of one contender to the others. */
final class Report {

    private Report() {
    }

    static void print(Map<String, List<Result>> results, String subject) {
        System.out.println("  medians (spread, min-max):");
        results.forEach((name, rounds) -> System.out.printf(Locale.ROOT,
                "    %-28s %9.0f msg/s (%s)   JVM %6.1f µs/msg   broker %s%n", name, median(rounds, Result::rate),
                spread(rounds, Result::rate, "%.0f"), median(rounds, Result::jvmMicros),
                Double.isNaN(median(rounds, Result::brokerMicros)) ? "n/a"
                        : String.format(Locale.ROOT, "%6.1f µs/msg", median(rounds, Result::brokerMicros))));
        List<Result> mine = results.get(subject);
        results.forEach((name, rounds) -> {
            if (name.equals(subject)) {
                return;
            }
            List<Double> throughput = new ArrayList<>();
            List<Double> cpu = new ArrayList<>();
            for (int i = 0; i < rounds.size(); i++) {
                throughput.add(mine.get(i).rate() / rounds.get(i).rate());
                cpu.add(mine.get(i).jvmMicros() / rounds.get(i).jvmMicros());
            }
            System.out.printf(Locale.ROOT, "  %s / %s: throughput %.2fx (%.2f-%.2f), JVM CPU per message %.2fx (%.2f-%.2f)%n",
                    subject, name, median(throughput), min(throughput), max(throughput), median(cpu), min(cpu), max(cpu));
        });
    }

    static double median(List<Result> rounds, ToDoubleFunction<Result> value) {
        return median(rounds.stream().map(value::applyAsDouble).toList());
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static String spread(List<Result> rounds, ToDoubleFunction<Result> value, String format) {
        List<Double> values = rounds.stream().map(value::applyAsDouble).toList();
        return String.format(Locale.ROOT, format + "-" + format, min(values), max(values));
    }

    static double min(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    static double max(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }
}
