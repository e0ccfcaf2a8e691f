package io.github.retrytopology.runtime.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A RabbitMQ version, such as {@code 4.3.6}, for tests of behaviour that changed between versions. */
public record BrokerVersion(int major, int minor, int patch) implements Comparable<BrokerVersion> {

    private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)(?:\\.(\\d+))?.*");

    /** Reads the version from the management API's {@code /api/overview} document. */
    static BrokerVersion of(String overview) throws IOException {
        return parse(new ObjectMapper().readTree(overview).path("rabbitmq_version").asText());
    }

    static BrokerVersion parse(String text) {
        Matcher matcher = VERSION.matcher(text);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not a RabbitMQ version: '" + text + "'");
        }
        return new BrokerVersion(Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)),
                matcher.group(3) == null ? 0 : Integer.parseInt(matcher.group(3)));
    }

    /** Whether this is {@code major.minor} or later. */
    public boolean atLeast(int major, int minor) {
        return this.major > major || this.major == major && this.minor >= minor;
    }

    @Override
    public int compareTo(BrokerVersion other) {
        return major != other.major ? Integer.compare(major, other.major)
                : minor != other.minor ? Integer.compare(minor, other.minor) : Integer.compare(patch, other.patch);
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch;
    }
}
