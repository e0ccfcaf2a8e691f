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

    private final Optional<Path> stat;

    private BrokerCpu(Optional<Path> stat) {
        this.stat = stat;
    }

    static BrokerCpu of(TestManagement management) throws IOException {
        JsonNode nodes = new ObjectMapper().readTree(management.get("api/nodes"));
        for (JsonNode node : nodes) {
            Path stat = Path.of("/proc", node.path("os_pid").asText(), "stat");
            if (nodes.size() == 1 && Files.isReadable(stat)) {
                return new BrokerCpu(Optional.of(stat));
            }
        }
        return new BrokerCpu(Optional.empty());
    }

    boolean available() {
        return stat.isPresent();
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
