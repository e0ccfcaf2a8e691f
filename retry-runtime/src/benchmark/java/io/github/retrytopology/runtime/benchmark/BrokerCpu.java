package io.github.retrytopology.runtime.benchmark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.retrytopology.runtime.testing.TestManagement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The CPU the broker's Erlang VM has used, read from {@code /proc/PID/stat} for the process that the management
 * API names as the node: only when the broker runs on this machine.
 */
final class BrokerCpu {

    /** Linux counts CPU time in ticks of 10 ms ({@code CLK_TCK} 100). */
    private static final long NANOS_PER_TICK = 10_000_000L;
    /** How long a node may take to collect its first statistics: RabbitMQ's default interval is 5 s. */
    private static final long STATISTICS_NANOS = 10_000_000_000L;

    private final Optional<Path> stat;

    private BrokerCpu(Optional<Path> stat) {
        this.stat = stat;
    }

    static BrokerCpu of(TestManagement management) throws IOException, InterruptedException {
        // A node that has just started names its process only once it has collected its first statistics.
        long deadline = System.nanoTime() + STATISTICS_NANOS;
        JsonNode nodes = new ObjectMapper().readTree(management.get("api/nodes"));
        while (nodes.size() == 1 && nodes.get(0).path("os_pid").asText().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(500);
            nodes = new ObjectMapper().readTree(management.get("api/nodes"));
        }
        String pid = nodes.size() == 1 ? nodes.get(0).path("os_pid").asText() : "";
        Path stat = Path.of("/proc", pid, "stat");
        return new BrokerCpu(!pid.isEmpty() && Files.isReadable(stat) ? Optional.of(stat) : Optional.empty());
    }

    boolean available() {
        return stat.isPresent();
    }

    /**
     * Waits until the broker is quiet, using less than a tenth of a core over half a second, for at most 30 s: a
     * quorum queue writes what it was just sent to its segment files for seconds afterwards, and a reading that
     * began then would be timed with that work. Without the broker's CPU, it waits 5 s.
     */
    void awaitQuiet() throws InterruptedException {
        if (stat.isEmpty()) {
            Thread.sleep(5_000);
            return;
        }
        long deadline = System.nanoTime() + 30_000_000_000L;
        long before = nanos();
        do {
            Thread.sleep(500);
            long now = nanos();
            if (now - before < 50_000_000L) {
                return;
            }
            before = now;
        } while (System.nanoTime() < deadline);
    }

    /** Nanoseconds of CPU, user and system, so far; -1 if not measurable. */
    long nanos() {
        if (stat.isEmpty()) {
            return -1;
        }
        try {
            String line = Files.readString(stat.get());
            // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
            String[] fields = line.substring(line.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * NANOS_PER_TICK;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
