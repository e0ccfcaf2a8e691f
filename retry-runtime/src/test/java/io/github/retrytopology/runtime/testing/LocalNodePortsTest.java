package io.github.retrytopology.runtime.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * A node's ports lie below the kernel's ephemeral range, where no client connection's end can take one while the
 * node is down between a kill and a start again; and no other node of this JVM gets them until the node is closed.
 */
class LocalNodePortsTest {

    @RepeatedTest(20)
    void aNodesPortsAreDistinctAndNeverEphemeral() throws Exception {
        List<Integer> ports = LocalNode.freePorts(3);

        assertThat(ports).doesNotHaveDuplicates().hasSize(3)
                .allSatisfy(port -> assertThat(port).isBetween(10_000, LocalNode.ephemeralPortsStart() - 1));
    }

    @Test
    void aPortHandedToANodeIsNotHandedToAnotherUntilTheNodeGivesItBack() throws Exception {
        int first = LocalNode.freePorts(1).get(0);
        int other = LocalNode.freePorts(1).get(0);
        LocalNode.release(List.of(other));
        // Candidates: the first node's port, free to bind while that node is down, then another.
        AtomicInteger calls = new AtomicInteger();
        List<Integer> ports = LocalNode.freePorts(1, () -> calls.getAndIncrement() == 0 ? first : other);

        assertThat(ports).containsExactly(other);

        LocalNode.release(List.of(first, other));
        assertThat(LocalNode.freePorts(1, () -> first)).containsExactly(first);
        LocalNode.release(List.of(first));
    }
}
