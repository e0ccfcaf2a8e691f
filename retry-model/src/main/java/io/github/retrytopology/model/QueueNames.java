package io.github.retrytopology.model;

import io.github.retrytopology.model.Names.QueueName;
import io.github.retrytopology.model.Names.QueueRole;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a live queue or policy name is to one spec: the service it belongs to and which of its queues it is.
 * {@link Names#parseQueue} reads a name by its shape alone, which tells nothing of the queues the spec's services
 * keep ({@code queue: ucenter@user}); this reads those through the spec, and every other name by its shape.
 *
 * <p>A spec's kept names never have the shape of another of its services' queues (the validator refuses that),
 * so the two readings never disagree on a name.
 */
public final class QueueNames {

    /** The queue each service that keeps one consumes, to the service. */
    private final Map<String, String> keptQueues = new HashMap<>();
    /** The same, from the service to its queue. */
    private final Map<String, String> keptBy = new HashMap<>();

    private QueueNames(RetrySpec spec) {
        for (Service service : spec.services()) {
            if (service.keepsQueue()) {
                keptQueues.put(service.queue(), service.name());
                keptBy.put(service.name(), service.queue());
            }
        }
    }

    /** The names of a spec's queues. */
    public static QueueNames of(RetrySpec spec) {
        return new QueueNames(spec);
    }

    /**
     * What a queue name is: a kept queue of the spec's (or the temporary queue of its migration), or else what
     * its shape says. Empty for a name that is neither. The queue named after a service that keeps another is
     * still that service's by its shape: the queue it consumed before the spec kept another, if it is there.
     */
    public Optional<QueueName> queue(String name) {
        String service = keptQueues.get(name);
        if (service != null) {
            return Optional.of(new QueueName(name, service, QueueRole.SERVICE, 0, false));
        }
        if (Names.isMigrationQueue(name)) {
            String migrated = keptQueues.get(Names.migratedQueue(name));
            if (migrated != null) {
                return Optional.of(new QueueName(Names.migratedQueue(name), migrated, QueueRole.SERVICE, 0, false)
                        .migrating());
            }
        }
        return Names.parseQueue(name);
    }

    /**
     * The queue a policy of ours configures, by the policy's name, which always derives from a service's: the
     * policy named after a service that keeps its queue configures the kept queue. Empty for a name that no
     * policy of ours has.
     */
    public Optional<QueueName> policy(String name) {
        return Names.parseQueue(name).map(parsed -> {
            String kept = keptBy.get(parsed.service());
            return kept != null && parsed.role() == QueueRole.SERVICE && !parsed.migration()
                    ? new QueueName(kept, parsed.service(), QueueRole.SERVICE, 0, false)
                    : parsed;
        });
    }
}
