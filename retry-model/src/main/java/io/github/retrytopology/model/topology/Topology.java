package io.github.retrytopology.model.topology;

import static java.util.Comparator.comparing;
import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.Names;
import io.github.retrytopology.model.QueueSettings;
import io.github.retrytopology.model.QueueType;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Route;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.Tier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The broker objects a spec needs, described independently of how they reach the broker: the generator
 * writes them as definitions, the runtime can declare them. Every list is sorted, so that two renderings of
 * one spec are identical.
 *
 * <p>Per service, with every queue durable and of the service's queue type:
 * <ul>
 *   <li>its queue (named after it, or the one the spec keeps), bound to the exchange once per routing key, which
 *       dead-letters to the parking lot (with a quorum queue, when the delivery limit is exceeded by a message that
 *       keeps crashing its consumer), and which holds back rejected messages when the broker delays the service's
 *       retries;
 *   <li>unless the broker delays its retries, one wait queue per tier, nobody's to consume, whose TTL is the tier's delay and which dead-letters
 *       back to the service's queue through the default exchange, so that a retry reaches no other service;
 *   <li>its parking lot, which keeps whatever reaches it.
 * </ul>
 * With quorum queues, dead-lettering is at least once (which needs an {@code overflow} that rejects publishes), and
 * the parking lot's delivery limit is as high as RabbitMQ allows: RabbitMQ 4 otherwise drops a parked message
 * that has been inspected twenty times, and RabbitMQ 3 refuses the {@code -1} that 4 reads as "no limit".
 *
 * @param vhost the virtual host
 * @param exchanges the exchanges, by name
 * @param queues the queues, by name
 * @param bindings the bindings, by exchange, queue and key
 * @param policies the policies, by name, each named after the queue it configures, as the queue's service derives
 *     that name (a kept queue's policy has its service's name); empty when settings are queue arguments
 */
public record Topology(String vhost, List<Exchange> exchanges, List<Queue> queues, List<Binding> bindings,
        List<Policy> policies) {

    /** The priority of our policies: above a catch-all policy at the default priority 0. */
    public static final int POLICY_PRIORITY = 100;

    /** The delivery limit of a quorum parking lot: the largest both RabbitMQ 3 and 4 accept, as good as none. */
    public static final int PARKING_LOT_DELIVERY_LIMIT = Integer.MAX_VALUE;

    /** The type of the exchange that publishers use. */
    public static final String EXCHANGE_TYPE = "topic";

    /** The exchange that dead-letters to a queue by its name: the default exchange. */
    public static final String DEFAULT_EXCHANGE = "";

    public Topology {
        requireNonNull(vhost, "vhost");
        exchanges = sorted(exchanges, comparing(Exchange::name));
        queues = sorted(queues, comparing(Queue::name));
        bindings = sorted(bindings, comparing(Binding::exchange).thenComparing(Binding::queue)
                .thenComparing(Binding::routingKey));
        policies = sorted(policies, comparing(Policy::name));
    }

    /** Derives the topology of a spec. */
    public static Topology of(RetrySpec spec) {
        List<Queue> queues = new ArrayList<>();
        List<Binding> bindings = new ArrayList<>();
        List<Policy> policies = new ArrayList<>();
        boolean asPolicies = spec.queueSettings() == QueueSettings.POLICIES;
        for (Service service : spec.services()) {
            for (Route route : service.routes()) {
                bindings.add(new Binding(spec.exchange(), service.queue(), route.key().value()));
            }
            List<Settings> settings = new ArrayList<>();
            settings.add(serviceQueue(service));
            service.tiers().forEach(tier -> settings.add(tierQueue(service, tier)));
            settings.add(parkingLot(service));
            for (Settings queue : settings) {
                Map<String, Object> arguments = new LinkedHashMap<>();
                arguments.put(QueueSetting.QUEUE_TYPE.argument(), service.queueType().id());
                if (asPolicies) {
                    if (!queue.values.isEmpty()) {
                        policies.add(new Policy(queue.policy, Names.exactPattern(queue.name), Policy.QUEUES,
                                POLICY_PRIORITY, queue.values));
                    }
                } else {
                    queue.values.forEach((name, value) -> arguments.put(QueueArguments.argument(name), value));
                }
                queues.add(new Queue(queue.name, arguments));
            }
        }
        List<Exchange> exchanges = List.of(new Exchange(spec.exchange(), EXCHANGE_TYPE, true));
        return new Topology(spec.vhost(), exchanges, queues, bindings, policies);
    }

    /** Returns the queue with this name. */
    public Queue queue(String name) {
        return queues.stream()
                .filter(queue -> queue.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no queue '" + name + "' in this topology"));
    }

    /**
     * Our policies by the queue each configures: the one queue its pattern matches. A kept queue's policy is named
     * after its service, not after the queue.
     */
    public Map<String, Policy> policiesByQueue() {
        Map<String, Policy> byPattern = new HashMap<>();
        policies.forEach(policy -> byPattern.put(policy.pattern(), policy));
        Map<String, Policy> byQueue = new LinkedHashMap<>();
        for (Queue queue : queues) {
            Policy policy = byPattern.get(Names.exactPattern(queue.name()));
            if (policy != null) {
                byQueue.put(queue.name(), policy);
            }
        }
        return byQueue;
    }

    private static Settings serviceQueue(Service service) {
        Settings settings = new Settings(service.queue(), service.queuePolicy());
        settings.deadLetterTo(service.parkingLot(), service.queueType());
        if (service.queueType() == QueueType.QUORUM) {
            settings.put(QueueSetting.DELIVERY_LIMIT, service.deliveryLimit());
        }
        service.retryPolicy().brokerDelay().ifPresent(delay -> {
            // Only failed deliveries: a nack with requeue, which the consumer sends when it stops, is not delayed.
            settings.put(QueueSetting.DELAYED_RETRY_TYPE, QueueArguments.FAILED);
            settings.put(QueueSetting.DELAYED_RETRY_MIN, delay.min().toMillis());
            settings.put(QueueSetting.DELAYED_RETRY_MAX, delay.max().toMillis());
        });
        return settings;
    }

    private static Settings tierQueue(Service service, Tier tier) {
        Settings settings = new Settings(tier.queue(), Names.policy(tier.queue()));
        settings.put(QueueSetting.MESSAGE_TTL, tier.delay().toMillis());
        settings.deadLetterTo(service.queue(), service.queueType());
        return settings;
    }

    private static Settings parkingLot(Service service) {
        Settings settings = new Settings(service.parkingLot(), Names.policy(service.parkingLot()));
        if (service.queueType() == QueueType.QUORUM) {
            settings.put(QueueSetting.DELIVERY_LIMIT, PARKING_LOT_DELIVERY_LIMIT);
        }
        return settings;
    }

    private static <T> List<T> sorted(List<T> items, Comparator<T> order) {
        return items.stream().sorted(order).toList();
    }

    /** The settings of one queue, keyed as policies key them; arguments add {@code x-} in front. */
    private static final class Settings {
        final String name;
        final String policy;
        final Map<String, Object> values = new LinkedHashMap<>();

        Settings(String name, String policy) {
            this.name = name;
            this.policy = policy;
        }

        <T> void put(QueueSetting<T> setting, T value) {
            setting.put(values, value);
        }

        void deadLetterTo(String queue, QueueType type) {
            put(QueueSetting.DEAD_LETTER_EXCHANGE, DEFAULT_EXCHANGE);
            put(QueueSetting.DEAD_LETTER_ROUTING_KEY, queue);
            if (type == QueueType.QUORUM) {
                put(QueueSetting.DEAD_LETTER_STRATEGY, QueueArguments.AT_LEAST_ONCE);
                put(QueueSetting.OVERFLOW, QueueArguments.REJECT_PUBLISH);
            }
        }
    }
}
