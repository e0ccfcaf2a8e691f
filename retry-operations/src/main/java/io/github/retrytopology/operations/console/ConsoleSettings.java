package io.github.retrytopology.operations.console;

import static java.util.Objects.requireNonNull;

import java.net.InetAddress;

/**
 * How a console serves: where it listens, whether it may change anything, in whose name it replays, and how much
 * of a parking lot one reading takes at most.
 *
 * @param address the address it listens on; anything but a loopback address needs {@code allowRemote}
 * @param port its port, 0 for any free one
 * @param allowRemote whether it may listen on an address other machines reach
 * @param readOnly whether it refuses every action, showing only
 * @param operator who replays, written into every replayed message with the time
 * @param maxScan the most parked messages one reading of a parking lot takes
 */
public record ConsoleSettings(InetAddress address, int port, boolean allowRemote, boolean readOnly, String operator,
        long maxScan) {

    public ConsoleSettings {
        requireNonNull(address, "address");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("a port is 0 to 65535, got " + port);
        }
        if (!address.isLoopbackAddress() && !allowRemote) {
            throw new IllegalArgumentException("the console would listen on " + address.getHostAddress()
                    + ", which other machines may reach, and it has no login of its own: add --allow-remote if that "
                    + "is what you want (behind a proxy that authenticates), or listen on 127.0.0.1");
        }
        requireNonNull(operator, "operator");
        if (operator.isBlank()) {
            throw new IllegalArgumentException("the operator is named, got a blank name");
        }
        if (maxScan < 1) {
            throw new IllegalArgumentException("a reading takes at least 1 message, got " + maxScan);
        }
    }
}
