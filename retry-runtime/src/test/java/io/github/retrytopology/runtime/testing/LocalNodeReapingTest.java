package io.github.retrytopology.runtime.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a JVM's first node start reaps of the nodes' directories: only what a JVM that ended left. Failsafe runs two
 * JVMs of tests at once, and each starts a node of its own; a directory the other JVM had just made, and whose node
 * was booting, was once deleted from under it, and the node never came up.
 */
class LocalNodeReapingTest {

    @TempDir
    Path nodes;

    @Test
    void keepsTheDirectoryOfANodeThatAnotherLiveJvmStarts() throws Exception {
        Process other = new ProcessBuilder("sleep", "30").start();
        try {
            Path home = node("tests-other@localhost", Long.toString(other.pid()));

            LocalNode.reapLeftovers(nodes);

            assertThat(home).isDirectory();
        } finally {
            other.destroyForcibly();
        }
    }

    @Test
    void deletesTheDirectoryOfANodeWhoseJvmHasEnded() throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        Path home = node("tests-ended@localhost", Long.toString(ended.pid()));

        LocalNode.reapLeftovers(nodes);

        assertThat(home).doesNotExist();
    }

    @Test
    void keepsADirectoryBeingMadeAndDeletesOneLeftWithoutItsOwnerAnHourAgo() throws Exception {
        Path fresh = node("tests-fresh@localhost", null);
        Path old = node("tests-old@localhost", null);
        Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(Duration.ofHours(2))));

        LocalNode.reapLeftovers(nodes);

        assertThat(fresh).isDirectory();
        assertThat(old).doesNotExist();
    }

    private Path node(String name, String owner) throws IOException {
        Path home = Files.createDirectories(nodes.resolve(name));
        Files.writeString(home.resolve("rabbitmq.conf"), "");
        if (owner != null) {
            Files.writeString(home.resolve("owner.pid"), owner);
        }
        return home;
    }
}
