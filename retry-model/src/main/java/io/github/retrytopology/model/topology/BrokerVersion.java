package io.github.retrytopology.model.topology;

import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.decision.DelayBackend;
import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A RabbitMQ version, as a broker reports it ({@code 4.3.6}, {@code 3.10.8}, {@code 4.3.0-beta.2}), and the oldest
 * version a topology needs.
 *
 * @param major the major version
 * @param minor the minor version
 * @param patch the patch version; a pre-release counts as the release before it
 */
public record BrokerVersion(int major, int minor, int patch) implements Comparable<BrokerVersion> {

    /** The first version whose quorum queues delay retries themselves and take the delayed-retry policy keys. */
    public static final BrokerVersion DELAYED_RETRY = new BrokerVersion(4, 3, 1);

    private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)(?:\\.(\\d+))?(-.*|\\+.*)?");
    private static final Comparator<BrokerVersion> ORDER = Comparator.comparingInt(BrokerVersion::major)
            .thenComparingInt(BrokerVersion::minor).thenComparingInt(BrokerVersion::patch);

    /**
     * Reads a version as a broker reports it.
     *
     * @throws IllegalArgumentException if it is no version
     */
    public static BrokerVersion parse(String text) {
        Matcher matcher = VERSION.matcher(text.strip());
        if (!matcher.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a RabbitMQ version such as 4.3.6");
        }
        int patch = matcher.group(3) == null ? 0 : Integer.parseInt(matcher.group(3));
        if (matcher.group(4) != null && matcher.group(4).startsWith("-")) {
            patch--; // 4.3.1-rc.1 comes before 4.3.1
        }
        return new BrokerVersion(Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)), patch);
    }

    /** The oldest RabbitMQ these services run on, if they need one newer than any this project supports. */
    public static Optional<BrokerVersion> requiredBy(Collection<Service> services) {
        return services.stream().anyMatch(service -> service.delayBackend() == DelayBackend.BROKER)
                ? Optional.of(DELAYED_RETRY) : Optional.empty();
    }

    /** Whether a broker of this version runs these services: whether none needs a newer RabbitMQ. */
    public boolean runs(Collection<Service> services) {
        return requiredBy(services).map(this::atLeast).orElse(true);
    }

    /** Whether this version is {@code other} or later. */
    public boolean atLeast(BrokerVersion other) {
        return compareTo(other) >= 0;
    }

    @Override
    public int compareTo(BrokerVersion other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + Math.max(patch, 0);
    }
}
