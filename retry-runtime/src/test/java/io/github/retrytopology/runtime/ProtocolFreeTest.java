package io.github.retrytopology.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The headers, their writer and the parking lot are in no protocol's terms, so that a consumer on another protocol
 * joins as one more adapter beside {@code amqp091} and {@code amqp10}: their main sources name no type of RabbitMQ's
 * clients (AMQP 0.9.1 and 1.0), nor of either adapter, but where a parking lot is opened over 0.9.1.
 */
class ProtocolFreeTest {

    private static final Path MAIN = Path.of("src/main/java/io/github/retrytopology/runtime");
    private static final List<String> PROTOCOL_FREE = List.of("headers", "internal", "parkinglot");
    /** What each file may name, and why: the parking lot's entry point opens it on a 0.9.1 connection. */
    private static final Map<String, Set<String>> ALLOWED = Map.of("parkinglot/ParkingLot.java",
            Set.of("com.rabbitmq.client.Connection", "io.github.retrytopology.runtime.amqp091.ParkingLotQueue"));

    @Test
    void theHeadersTheirWriterAndTheParkingLotNameNoProtocolsType() throws IOException {
        List<String> named = new ArrayList<>();
        int files = 0;
        for (String pkg : PROTOCOL_FREE) {
            try (Stream<Path> sources = Files.list(MAIN.resolve(pkg))) {
                for (Path source : sources.filter(path -> path.toString().endsWith(".java")).sorted().toList()) {
                    files++;
                    String file = MAIN.relativize(source).toString().replace('\\', '/');
                    Set<String> allowed = ALLOWED.getOrDefault(file, Set.of());
                    List<String> lines = Files.readAllLines(source, StandardCharsets.UTF_8);
                    for (int i = 0; i < lines.size(); i++) {
                        String line = lines.get(i);
                        for (String protocol : List.of("com.rabbitmq.", "io.github.retrytopology.runtime.amqp091.",
                                "io.github.retrytopology.runtime.amqp10.")) {
                            int at = line.indexOf(protocol);
                            if (at < 0) {
                                continue;
                            }
                            String type = line.substring(at).split("[^A-Za-z0-9_.]", 2)[0].replaceAll("\\.$", "");
                            if (!allowed.contains(type)) {
                                named.add(file + ":" + (i + 1) + " " + type);
                            }
                        }
                    }
                }
            }
        }

        assertThat(files).as("sources read under %s", MAIN.toAbsolutePath()).isGreaterThan(10);
        assertThat(named).isEmpty();
    }
}
