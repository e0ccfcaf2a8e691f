package io.github.retrytopology.operations.adopt;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.topology.BrokerVersion;
import java.util.Optional;

/**
 * What a person adds to what the broker holds when adopting.
 *
 * @param javaPackage the Java package of the generated code; empty for one made from the virtual host's name,
 *     which the draft marks as assumed
 * @param brokerVersion the RabbitMQ version the spec will run on; empty for the version the definitions came from.
 *     From 4.3.1 a service whose retries went through a delayed-message exchange gets {@code delayBy: broker}
 * @param specFile the spec's file name, as the draft and the record name it
 */
public record AdoptOptions(Optional<String> javaPackage, Optional<BrokerVersion> brokerVersion, String specFile) {

    /** The spec's file name when none is given. */
    public static final String SPEC_FILE = "retry.yml";

    public AdoptOptions {
        requireNonNull(javaPackage, "javaPackage");
        requireNonNull(brokerVersion, "brokerVersion");
        requireNonNull(specFile, "specFile");
    }

    /** No package, the definitions' version, {@value #SPEC_FILE}. */
    public static AdoptOptions defaults() {
        return new AdoptOptions(Optional.empty(), Optional.empty(), SPEC_FILE);
    }

    public AdoptOptions javaPackage(String javaPackage) {
        return new AdoptOptions(Optional.of(javaPackage), brokerVersion, specFile);
    }

    public AdoptOptions brokerVersion(BrokerVersion version) {
        return new AdoptOptions(javaPackage, Optional.of(version), specFile);
    }

    public AdoptOptions specFile(String name) {
        return new AdoptOptions(javaPackage, brokerVersion, name);
    }
}
