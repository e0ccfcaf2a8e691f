package io.github.retrytopology.operations.console;

import static java.util.Objects.requireNonNull;

import java.net.InetAddress;

/**
 * How a console serves: where it listens, whether it may change anything, who acts, and how much of a parking lot
 * one reading takes at most.
 *
 * @param address the address it listens on; anything but a loopback address needs {@code allowRemote}
 * @param port its port, 0 for any free one
 * @param allowRemote whether it may listen on an address other machines reach; only behind an authenticating proxy
 *     that names each request's user, so {@code operator} must be a {@link OperatorSource.ProxyHeader}
 * @param readOnly whether it refuses every action, showing only
 * @param operator who replays and purges, written into every replayed message with the time
 * @param maxScan the most parked messages one reading of a parking lot takes
 */
public record ConsoleSettings(InetAddress address, int port, boolean allowRemote, boolean readOnly,
        OperatorSource operator, long maxScan) {

    public ConsoleSettings {
        requireNonNull(address, "address");
        requireNonNull(operator, "operator");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("a port is 0 to 65535, got " + port);
        }
        if (!address.isLoopbackAddress() && !allowRemote) {
            throw new IllegalArgumentException("the console would listen on " + address.getHostAddress()
                    + ", which other machines may reach, and it has no login of its own: add --allow-remote and "
                    + "--operator-header if that is what you want (behind a proxy that authenticates), or listen on "
                    + "127.0.0.1");
        }
        if (allowRemote && !(operator instanceof OperatorSource.ProxyHeader)) {
            throw new IllegalArgumentException("--allow-remote needs --operator-header: where other machines reach "
                    + "the console, it takes who acts from the header its authenticating proxy sets, and refuses "
                    + "requests without it; without that, anyone who reaches it replays and purges under one name");
        }
        if (maxScan < 1) {
            throw new IllegalArgumentException("a reading takes at least 1 message, got " + maxScan);
        }
    }

    /** A console on the loopback address that one person uses, acting in their name. */
    public static ConsoleSettings local(int port, boolean readOnly, String operator, long maxScan) {
        return new ConsoleSettings(InetAddress.getLoopbackAddress(), port, false, readOnly,
                OperatorSource.named(operator), maxScan);
    }
}
