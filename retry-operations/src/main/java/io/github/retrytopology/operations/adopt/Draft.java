package io.github.retrytopology.operations.adopt;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * A drafted {@code retry.yml}, every value and comment decided: {@link DraftYaml} only prints it. Comments are
 * sentences, printed above the key they are about.
 *
 * @param header the file's opening comment
 * @param services the services, in order; none when the virtual host has no retry structure, and the file is
 *     then its comments only
 * @param trailer the closing comment: what is unmapped, and the problems
 */
record Draft(List<String> header, Value javaPackage, Value vhost, Value exchange, List<Service> services,
        List<String> trailer) {

    Draft {
        header = List.copyOf(header);
        requireNonNull(javaPackage, "javaPackage");
        requireNonNull(vhost, "vhost");
        requireNonNull(exchange, "exchange");
        services = List.copyOf(services);
        trailer = List.copyOf(trailer);
    }

    /** The same draft with another closing comment. */
    Draft withTrailer(List<String> trailer) {
        return new Draft(header, javaPackage, vhost, exchange, services, trailer);
    }

    /** A value and the comments above its key. */
    record Value(String value, List<String> comments) {
        Value {
            requireNonNull(value, "value");
            comments = List.copyOf(comments);
        }

        static Value of(String value, String... comments) {
            return new Value(value, List.of(comments));
        }
    }

    /**
     * A service.
     *
     * @param comments the objects it came from
     * @param delayBy {@code broker}, when the broker delays its retries; empty for tier queues, the default
     * @param delays its delays as {@code delays} writes them, such as {@code [30s, 1m]}; empty when it never retries
     */
    record Service(String name, List<String> comments, Value queue, Value queueType, List<Key> routingKeys,
            List<String> routingKeysComments, Value maxAttempts, Optional<Value> delayBy, Optional<Value> delays) {
        Service {
            requireNonNull(name, "name");
            comments = List.copyOf(comments);
            requireNonNull(queue, "queue");
            requireNonNull(queueType, "queueType");
            routingKeys = List.copyOf(routingKeys);
            routingKeysComments = List.copyOf(routingKeysComments);
            requireNonNull(maxAttempts, "maxAttempts");
            requireNonNull(delayBy, "delayBy");
            requireNonNull(delays, "delays");
        }
    }

    /** A routing key, and its handler's name where the spec could not derive it from the key. */
    record Key(String key, Optional<String> handler) {
        Key {
            requireNonNull(key, "key");
            requireNonNull(handler, "handler");
        }
    }
}
