package io.github.retrytopology.model;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The runtime's routing of one delivery: matching its routing key against a binding key, measured in the same
 * run against the way the model matched before (both keys split into word lists, a memo table per match) and
 * against a baseline, merely splitting the routing key into words.
 *
 * <p>Run with {@code ./mvnw -pl retry-model verify -Pbenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BindingKeyBenchmark {

    /** A binding key and a routing key: a typical wildcard, and patterns built to be slow. */
    @Param({"typical", "hashes", "alternating", "stars"})
    String shape;

    private BindingKey key;
    private String routingKey;

    @Setup
    public void keys() {
        switch (shape) {
            case "typical" -> {
                key = BindingKey.of("order.*.paid");
                routingKey = "order.42.paid";
            }
            case "hashes" -> {
                key = BindingKey.of("#.".repeat(125) + "w1");
                routingKey = "w.".repeat(126) + "nope";
            }
            case "alternating" -> {
                key = BindingKey.of("#.a.".repeat(63) + "b");
                routingKey = "a.".repeat(127) + "a";
            }
            default -> {
                key = BindingKey.of("*.#.".repeat(63) + "*");
                routingKey = "w.".repeat(127) + "w";
            }
        }
    }

    @Benchmark
    public boolean compiledKey() {
        return key.matches(routingKey);
    }

    @Benchmark
    public boolean wordLists() {
        return WordLists.matches(key.value(), routingKey);
    }

    @Benchmark
    public Object baselineSplit() {
        return WordLists.words(routingKey);
    }
}
