package io.github.retrytopology.runtime.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.RepeatedTest;

/**
 * A node's ports lie below the kernel's ephemeral range, where no client connection's end can take one while the
 * node is down between a kill and a start again.
 */
class LocalNodePortsTest {

    @RepeatedTest(20)
    void aNodesPortsAreDistinctAndNeverEphemeral() throws Exception {
        List<Integer> ports = LocalNode.freePorts(3);

        assertThat(ports).doesNotHaveDuplicates().hasSize(3)
                .allSatisfy(port -> assertThat(port).isBetween(10_000, LocalNode.ephemeralPortsStart() - 1));
    }
}
