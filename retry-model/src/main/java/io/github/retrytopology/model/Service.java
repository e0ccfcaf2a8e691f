package io.github.retrytopology.model;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.decision.DelayBackend;
import io.github.retrytopology.model.decision.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One consuming service: its queue, the routing keys bound to it, and how it retries.
 *
 * @param name the service's lower-kebab-case name, from which every name of its queues derives but the one it
 *     consumes, when the spec keeps that
 * @param queue the queue it consumes: its name, or the name of the queue it consumes today, which the spec keeps
 *     so that its consumers need not change their queue at once
 * @param routes the routing keys it consumes, in the order the spec lists them, which is the order
 *     deliveries are matched against them
 * @param retryPolicy when and how it retries
 * @param queueType the type of all of its queues
 */
public record Service(String name, String queue, List<Route> routes, RetryPolicy retryPolicy, QueueType queueType) {

    /**
     * The most routing keys one service may consume. Bindings this many are a design to rethink, and the bound
     * keeps the check that no key hides behind an earlier one quick.
     */
    public static final int MAX_ROUTING_KEYS = 1_000;

    public Service {
        requireNonNull(name, "name");
        if (!Names.isServiceName(name)) {
            throw new IllegalArgumentException("service name '" + name + "' is not lower-kebab-case");
        }
        requireNonNull(queue, "queue");
        if (queue.isEmpty() || queue.startsWith(Names.RESERVED_PREFIX) || !Names.fitsBroker(queue)
                || queue.codePoints().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("service '" + name + "' cannot consume queue '" + queue + "': RabbitMQ "
                    + "declares names of 1 to " + Names.MAX_NAME_BYTES + " bytes not starting with "
                    + Names.RESERVED_PREFIX + ", and this project none with a control character");
        }
        Names.parseQueue(queue)
                .filter(parsed -> parsed.service().equals(name)
                        && (parsed.migration() || parsed.role() != Names.QueueRole.SERVICE))
                .ifPresent(own -> {
                    throw new IllegalArgumentException("service '" + name + "' cannot consume queue '" + queue
                            + "', which is named as one of its other queues");
                });
        routes = List.copyOf(routes);
        if (routes.isEmpty() || routes.size() > MAX_ROUTING_KEYS) {
            throw new IllegalArgumentException("service '" + name + "' has " + routes.size() + " routing keys; it needs 1 to "
                    + MAX_ROUTING_KEYS);
        }
        Set<BindingKey> keys = new HashSet<>();
        Set<String> handlers = new HashSet<>();
        for (Route route : routes) {
            if (!keys.add(route.key()) || !handlers.add(route.handler())) {
                throw new IllegalArgumentException("service '" + name + "' has two routes for "
                        + route.key() + " or two handlers named " + route.handler());
            }
        }
        requireNonNull(retryPolicy, "retryPolicy");
        requireNonNull(queueType, "queueType");
        if (retryPolicy.protocol() == Protocol.AMQP_1_0 && queueType != QueueType.QUORUM) {
            throw new IllegalArgumentException("service '" + name + "' is consumed over AMQP 1.0, whose delivery times "
                    + "and delivery limit only quorum queues have (RabbitMQ 4.3.1 and later), but its queues are "
                    + queueType.id());
        }
        if (retryPolicy.delayBackend() == DelayBackend.BROKER && queueType != QueueType.QUORUM) {
            throw new IllegalArgumentException("service '" + name + "' has the broker delay its retries, which only "
                    + "quorum queues do, but its queues are " + queueType.id());
        }
    }

    /** A service that consumes the queue named after it, as a spec without {@code queue:} has it. */
    public Service(String name, List<Route> routes, RetryPolicy retryPolicy, QueueType queueType) {
        this(name, Names.queue(name), routes, retryPolicy, queueType);
    }

    /** Whether it consumes a queue of another name than its own, which the spec keeps. */
    public boolean keepsQueue() {
        return !queue.equals(Names.queue(name));
    }

    /**
     * The policy that configures its queue: named after the service, as the queue is unless the spec keeps
     * another, so that every policy's name derives from a service's.
     */
    public String queuePolicy() {
        return Names.policy(Names.queue(name));
    }

    /** The queue its messages go to when they will not be retried. */
    public String parkingLot() {
        return Names.parkingLot(name);
    }

    /** What holds its messages until their retry: tier queues, or the broker. */
    public DelayBackend delayBackend() {
        return retryPolicy.delayBackend();
    }

    /** The protocol its consumer speaks: AMQP 0.9.1, or AMQP 1.0, whose retries the broker holds until their time. */
    public Protocol protocol() {
        return retryPolicy.protocol();
    }

    /** Its delay tiers, tier 1 first; empty if it never retries or the broker delays its retries. */
    public List<Tier> tiers() {
        List<Duration> delays = retryPolicy.tiers();
        List<Tier> tiers = new ArrayList<>(delays.size());
        for (int number = 1; number <= delays.size(); number++) {
            tiers.add(new Tier(number, delays.get(number - 1), Names.tierQueue(name, number)));
        }
        return List.copyOf(tiers);
    }

    /** Returns the tier with this number, as a {@code Decision.Retry} names it. */
    public Tier tier(int number) {
        List<Tier> tiers = tiers();
        if (number < 1 || number > tiers.size()) {
            throw new IllegalArgumentException("service '" + name + "' has tiers 1 to " + tiers.size() + ", not " + number);
        }
        return tiers.get(number - 1);
    }

    /**
     * How many failed deliveries of one message the broker allows before it parks the message on its own:
     * {@code maxAttempts - 1}, so that a message that crashes its consumer every time is delivered
     * {@code maxAttempts} times in all, like one that fails. On tier queues each retry arrives as a new message,
     * so this counts only deliveries that ended without an answer (a consumer that crashed or lost its
     * connection). When the broker delays retries, it counts those and every retry (a reject, or over AMQP 1.0 a
     * failed {@code modified} outcome) alike; the consumer parks the last failure itself, so the broker parks only a
     * message whose last attempt ended without an answer.
     */
    public int deliveryLimit() {
        return retryPolicy.maxAttempts() - 1;
    }

    /** The route with exactly this binding key. */
    public Optional<Route> route(String bindingKey) {
        return routes.stream().filter(route -> route.key().value().equals(bindingKey)).findFirst();
    }

    /** Its Java type name, such as {@code CdnPurge}. */
    public String javaType() {
        return Names.javaType(name);
    }

    /** Its generated handler interface, such as {@code CdnPurgeHandler}. */
    public String handlerInterface() {
        return Names.handlerInterface(name);
    }

    /** The constant that holds it in the generated topology class, such as {@code CDN_PURGE}. */
    public String constant() {
        return Names.constant(name);
    }
}
