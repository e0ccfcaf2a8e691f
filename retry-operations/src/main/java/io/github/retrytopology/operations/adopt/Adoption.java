package io.github.retrytopology.operations.adopt;

import static java.util.Objects.requireNonNull;

/**
 * A drafted spec and its record: what {@link Adopter#adopt} makes of a virtual host.
 *
 * @param spec the draft {@code retry.yml}, as text: the spec with a comment on every service and every assumption,
 *     and a closing comment that lists what is unmapped and the problems; only comments when no service was found
 * @param record where each old queue's messages go, and what the spec replaces
 */
public record Adoption(String spec, AdoptionRecord record) {

    public Adoption {
        requireNonNull(spec, "spec");
        requireNonNull(record, "record");
    }

    /** Whether the draft has at least one service, and is then a spec that the model accepts unless a problem says. */
    public boolean hasServices() {
        return !record.services().isEmpty();
    }

    /** Whether the virtual host was understood whole: services found, nothing unmapped, no problem. */
    public boolean clean() {
        return hasServices() && record.clean();
    }
}
