package io.github.retrytopology.operations.adopt;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.headers.DeathField;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * What adopt found in a virtual host and how the drafted spec replaces it, for the migration onto that spec: where
 * the messages of each old queue go, how their attempts are counted there, which old objects the spec replaces,
 * and what it left alone. {@link AdoptionJson} writes it beside the draft ({@code retry.adoption.json}) and reads
 * it back.
 *
 * <p>It holds no time and nothing that changes from one run to the next: adopting the same definitions again gives
 * the same record, so that a migration interrupted midway can read it again and carry on. Lists are sorted by name.
 * Its layout has a version, {@link #SCHEMA}, which changes only when a field changes meaning or goes.
 *
 * @param schema the layout's version, {@value #SCHEMA}
 * @param vhost the virtual host adopted
 * @param source where its definitions were read: a file, or a management API
 * @param brokerVersion the RabbitMQ version the definitions came from, if they say
 * @param spec the spec's file name, such as {@code retry.yml}
 * @param exchange the spec's exchange and how publishers reach it
 * @param services each service of the draft
 * @param queues every old queue that belongs to a retry structure, by name
 * @param replaced the old objects the spec replaces, to be removed once the migration has emptied them
 * @param unmapped what belongs to no retry structure, or cannot be told, with the reason
 * @param problems what the draft cannot say as the broker has it, with the reason
 */
public record AdoptionRecord(int schema, String vhost, String source, Optional<String> brokerVersion, String spec,
        SpecExchange exchange, List<ServiceRecord> services, List<OldQueue> queues, Replaced replaced,
        List<Listed> unmapped, List<Listed> problems) {

    /** The version of the layout. */
    public static final int SCHEMA = 1;

    public AdoptionRecord {
        requireNonNull(vhost, "vhost");
        requireNonNull(source, "source");
        requireNonNull(brokerVersion, "brokerVersion");
        requireNonNull(spec, "spec");
        requireNonNull(exchange, "exchange");
        services = List.copyOf(services);
        queues = List.copyOf(queues);
        requireNonNull(replaced, "replaced");
        unmapped = List.copyOf(unmapped);
        problems = List.copyOf(problems);
    }

    /** Whether everything in the virtual host was understood: nothing unmapped, no problem. */
    public boolean clean() {
        return unmapped.isEmpty() && problems.isEmpty();
    }

    /** The old queue of this name, if it belongs to a retry structure. */
    public Optional<OldQueue> queue(String name) {
        return queues.stream().filter(queue -> queue.queue().equals(name)).findFirst();
    }

    /**
     * The spec's exchange.
     *
     * @param name the topic exchange the spec names
     * @param exists whether the virtual host has it already, as a topic exchange
     * @param publishers the exchanges publishers use today for the services' messages; the spec's own when it is one
     * @param bridge the exchange-to-exchange bindings that carry what publishers send to an old exchange on to the
     *     spec's, so that they need not change at once; empty when they publish to the spec's exchange already
     */
    public record SpecExchange(String name, boolean exists, List<String> publishers, List<OldBinding> bridge) {
        public SpecExchange {
            requireNonNull(name, "name");
            publishers = List.copyOf(publishers);
            bridge = List.copyOf(bridge);
        }
    }

    /**
     * A service of the draft and its queues in the spec.
     *
     * @param service its name in the spec
     * @param queue the queue it consumes: the old work queue's, which the spec keeps
     * @param tiers its wait queues in the spec, tier 1 first; empty when it does not retry or the broker delays
     * @param parkingLot its parking lot
     * @param maxAttempts its attempts in all, as drafted
     */
    public record ServiceRecord(String service, String queue, List<Tier> tiers, String parkingLot, int maxAttempts) {
        public ServiceRecord {
            requireNonNull(service, "service");
            requireNonNull(queue, "queue");
            tiers = List.copyOf(tiers);
            requireNonNull(parkingLot, "parkingLot");
        }
    }

    /** A wait queue of the spec: its number, from 1, its name and its delay. */
    public record Tier(int tier, String queue, Duration delay) {
        public Tier {
            requireNonNull(queue, "queue");
            requireNonNull(delay, "delay");
        }
    }

    /** What an old queue was. */
    public enum Role {
        /** A queue a service consumes. */
        WORK("work"),
        /** A queue where failed messages wait before they come back. */
        WAIT("wait"),
        /** A queue that keeps messages past their last attempt. */
        FAILED("failed");

        private final String id;

        Role(String id) {
            this.id = id;
        }

        /** How the record's JSON writes it. */
        public String id() {
            return id;
        }

        static Role of(String id) {
            for (Role role : values()) {
                if (role.id.equals(id)) {
                    return role;
                }
            }
            throw new IllegalArgumentException("'" + id + "' is not a role; expected work, wait or failed");
        }
    }

    /**
     * An old queue of a retry structure and what becomes of its messages.
     *
     * @param queue its name
     * @param role what it was
     * @param service the service of the draft it belongs to
     * @param delay its TTL; empty when its publisher set each message's, or it has none
     * @param destination where its messages go
     * @param attempts how the failed attempts of a message in it are counted
     * @param arguments its arguments, as the broker holds them
     * @param conflicting those of its arguments that would win over the spec's policies on the queue the spec keeps
     *     (dead-lettering, TTL, limits): the queue must then be declared anew before it follows the spec; empty for
     *     a queue the spec does not keep
     */
    public record OldQueue(String queue, Role role, String service, Optional<Duration> delay, Destination destination,
            AttemptCount attempts, Map<String, Object> arguments, List<String> conflicting) {
        public OldQueue {
            requireNonNull(queue, "queue");
            requireNonNull(role, "role");
            requireNonNull(service, "service");
            requireNonNull(delay, "delay");
            requireNonNull(destination, "destination");
            requireNonNull(attempts, "attempts");
            arguments = java.util.Collections.unmodifiableMap(new TreeMap<>(arguments));
            conflicting = List.copyOf(conflicting);
        }
    }

    /** Where an old queue's messages go in the spec's topology. */
    public sealed interface Destination {

        /** The queue the service consumes; the old work queue itself when the spec keeps it. */
        record ServiceQueue(String queue) implements Destination {
            public ServiceQueue {
                requireNonNull(queue, "queue");
            }
        }

        /** One wait queue of the service. */
        record TierQueue(int tier, String queue) implements Destination {
            public TierQueue {
                requireNonNull(queue, "queue");
            }
        }

        /**
         * The wait queue whose delay fits each message's: the old queue had none of its own, its publisher setting
         * each message's TTL ({@code expiration}, which dead-lettering keeps in {@code x-death}'s
         * {@code original-expiration}).
         */
        record TierByDelay(List<Tier> tiers) implements Destination {
            public TierByDelay {
                tiers = List.copyOf(tiers);
            }
        }

        /** The service's parking lot. */
        record ParkingLot(String queue) implements Destination {
            public ParkingLot {
                requireNonNull(queue, "queue");
            }
        }
    }

    /** How many times a message in an old queue has failed, which the migration carries into the runtime's headers. */
    public sealed interface AttemptCount {

        /**
         * The failures of a message with these headers, if this count can tell: {@code x-death} entries as the
         * RabbitMQ Java client reads them (a list of tables), a header as a number or its text; null headers
         * are none.
         */
        OptionalInt failures(@Nullable Map<String, Object> headers);

        /**
         * Counted by the broker's {@code x-death} header: the sum of the {@code count} of its entries for one of
         * these queues with this reason, plus {@code plus} (the failure that put the message where it is, when
         * that one was a publish rather than a dead-lettering).
         */
        record XDeath(List<String> queues, String reason, int plus) implements AttemptCount {
            /** The header it counts in, the broker's; {@link Header} here is another. */
            private static final String HISTORY = io.github.retrytopology.model.headers.Header.X_DEATH.name();

            public XDeath {
                queues = List.copyOf(queues);
                requireNonNull(reason, "reason");
            }

            @Override
            public OptionalInt failures(@Nullable Map<String, Object> headers) {
                long sum = plus;
                if (headers != null && headers.get(HISTORY) instanceof List<?> deaths) {
                    for (Object death : deaths) {
                        if (death instanceof Map<?, ?> entry
                                && queues.contains(String.valueOf(entry.get(DeathField.QUEUE.name())))
                                && reason.equals(String.valueOf(entry.get(DeathField.REASON.name())))) {
                            sum += number(entry.get(DeathField.COUNT.name())).orElse(1);
                        }
                    }
                }
                return OptionalInt.of((int) Math.min(sum, Integer.MAX_VALUE));
            }
        }

        /** Counted by a header of the message, such as a quorum queue's {@code x-delivery-count}. */
        record Header(String name) implements AttemptCount {
            public Header {
                requireNonNull(name, "name");
            }

            @Override
            public OptionalInt failures(@Nullable Map<String, Object> headers) {
                OptionalInt count = headers == null ? OptionalInt.empty() : number(headers.get(name));
                return count.isPresent() ? count : OptionalInt.of(0);
            }
        }

        /** Not counted anywhere the broker shows: the reason says why. */
        record Unknown(String reason) implements AttemptCount {
            public Unknown {
                requireNonNull(reason, "reason");
            }

            @Override
            public OptionalInt failures(@Nullable Map<String, Object> headers) {
                return OptionalInt.empty();
            }
        }

        private static OptionalInt number(@Nullable Object value) {
            if (value instanceof Number number) {
                return OptionalInt.of((int) Math.min(number.longValue(), Integer.MAX_VALUE));
            }
            if (value != null && value.toString().matches("\\d{1,9}")) {
                return OptionalInt.of(Integer.parseInt(value.toString()));
            }
            return OptionalInt.empty();
        }
    }

    /** The old objects the spec replaces. */
    public record Replaced(List<String> queues, List<OldExchange> exchanges, List<OldBinding> bindings,
            List<String> policies) {
        public Replaced {
            queues = List.copyOf(queues);
            exchanges = List.copyOf(exchanges);
            bindings = List.copyOf(bindings);
            policies = List.copyOf(policies);
        }
    }

    /**
     * An old exchange of a retry structure.
     *
     * @param role {@code retry} (into wait queues), {@code requeue} (from wait queues back to work queues),
     *     {@code failed} (into failed queues), {@code delayed} (a delayed-message exchange), or {@code retry-structure}
     *     for one that does several of these
     */
    public record OldExchange(String name, String type, String role) {
        public OldExchange {
            requireNonNull(name, "name");
            requireNonNull(type, "type");
            requireNonNull(role, "role");
        }
    }

    /**
     * A binding as the broker holds it.
     *
     * @param destinationType {@code queue} or {@code exchange}
     * @param arguments its arguments, which with the routing key name it to the management API
     */
    public record OldBinding(String source, String destination, String destinationType, String routingKey,
            Map<String, Object> arguments) {
        public OldBinding {
            requireNonNull(source, "source");
            requireNonNull(destination, "destination");
            requireNonNull(destinationType, "destinationType");
            requireNonNull(routingKey, "routingKey");
            arguments = java.util.Collections.unmodifiableMap(new TreeMap<>(arguments));
        }

        /** How the draft's comments and the command's output write it. */
        public String describe() {
            return source + " -> " + destination + (routingKey.isEmpty() ? "" : " (" + routingKey + ")");
        }
    }

    /**
     * An object listed with a reason: unmapped, or a problem.
     *
     * @param kind {@code queue}, {@code exchange}, {@code binding}, {@code policy}, {@code operator-policy},
     *     {@code spec}, or a parameter's component, such as {@code shovel}
     * @param name its name; a binding's is {@code source -> destination (key)}
     * @param reason why, in a sentence
     */
    public record Listed(String kind, String name, String reason) {
        public Listed {
            requireNonNull(kind, "kind");
            requireNonNull(name, "name");
            requireNonNull(reason, "reason");
        }

        @Override
        public String toString() {
            return kind + " '" + name + "': " + reason;
        }
    }
}
