package io.github.retrytopology.runtime.testing;

import java.io.IOException;

/** {@code rabbitmqctl} for a broker that runs on this machine, and a way to hand it files. */
public interface NodeControl {

    /** Runs {@code rabbitmqctl} against the node and returns what it printed; fails if it fails. */
    String ctl(String... arguments) throws IOException;

    /**
     * Writes a file where {@code rabbitmqctl} can read it (it may run as another user, or in another root), and
     * returns its path as {@code rabbitmqctl} sees it.
     */
    String share(String name, String content) throws IOException;
}
