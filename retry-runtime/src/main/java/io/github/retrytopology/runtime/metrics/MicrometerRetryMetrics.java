package io.github.retrytopology.runtime.metrics;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.Tier;
import io.github.retrytopology.model.decision.Decision;
import io.github.retrytopology.runtime.consumer.DeliveryContext;
import io.github.retrytopology.runtime.consumer.DeliveryObserver;
import io.github.retrytopology.runtime.consumer.RetryListener;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.consumer.ServiceConsumer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The consumers' metrics, through Micrometer (an optional dependency): it is a {@link RetryListener}, for what
 * happened to each message, and a {@link DeliveryObserver}, for how long its handler took.
 *
 * <pre>{@code
 * MicrometerRetryMetrics metrics = MicrometerRetryMetrics.of(registry);
 * RetryingConsumer consumer = RetryingConsumer.builder(connection, routes).listener(metrics).observer(metrics).start();
 * metrics.watch(consumer);
 * }</pre>
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>Name</th><th>Type</th><th>What</th></tr>
 *   <tr><td>{@code messaging.process.duration}</td><td>timer</td><td>each handler run, tagged with its outcome and
 *       the failure's class ({@code error.type})</td></tr>
 *   <tr><td>{@code retry.messages}</td><td>counter</td><td>messages acknowledged ({@code retry.outcome}
 *       {@code success}), retried (with {@code retry.tier}: its number, or {@code broker} where the broker delays
 *       retries) or parked (with {@code retry.park.reason}), once the
 *       broker took them</td></tr>
 *   <tr><td>{@code retry.republish.duration}</td><td>timer</td><td>from a retry's or park's first send to the
 *       broker's confirm</td></tr>
 *   <tr><td>{@code retry.republish.failures}</td><td>counter</td><td>sends refused, returned or not confirmed in
 *       time</td></tr>
 *   <tr><td>{@code retry.redeliveries}</td><td>counter</td><td>deliveries handed out again after one that ended
 *       unanswered</td></tr>
 *   <tr><td>{@code retry.consumers.lost}</td><td>counter</td><td>consumers the broker cancelled or whose channel or
 *       connection closed</td></tr>
 *   <tr><td>{@code retry.consumers.running}</td><td>gauge</td><td>consumers subscribed, for each consumer
 *       {@linkplain #watch watched}</td></tr>
 * </table>
 *
 * Every meter carries {@code messaging.system} ({@code rabbitmq}), {@code retry.service} and {@code
 * messaging.destination.subscription.name} (the service's queue); those about a message also {@code
 * messaging.destination.name} (the exchange it was published to) and {@code retry.route}, the routing key of the
 * spec that took it ({@code none} if none did). That is the key as the spec writes it, wildcards and all, so
 * the tags take as many values as the spec has keys, however many routing keys messages carry. Names follow
 * Micrometer's conventions and, where one applies, OpenTelemetry's semantic conventions for messaging.
 */
public final class MicrometerRetryMetrics implements RetryListener, DeliveryObserver {

    private static final String NONE = "none";
    /** The tier of a retry the broker delays. */
    private static final String BROKER = "broker";

    private final MeterRegistry registry;
    /** Each meter by its name and tag values: cheaper to build and compare, once per message, than its tags. */
    private final Map<Key, Counter> counters = new ConcurrentHashMap<>();
    private final Map<Key, Timer> timers = new ConcurrentHashMap<>();

    private MicrometerRetryMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Metrics in this registry. */
    @SuppressWarnings("exports") // Micrometer is optional: a module that calls this requires it itself
    public static MicrometerRetryMetrics of(MeterRegistry registry) {
        return new MicrometerRetryMetrics(requireNonNull(registry, "registry"));
    }

    /**
     * Reports how many of this consumer's consumers are subscribed, as {@code retry.consumers.running}, over either
     * protocol. A consumer watched in the place of a stopped one of the same service, as after a restart, takes over
     * its gauge.
     */
    public MicrometerRetryMetrics watch(ServiceConsumer consumer) {
        Key key = Key.of("retry.consumers.running", consumer.service());
        Gauge watched = registry.find(key.name).tags(key.tags()).gauge();
        if (watched != null) {
            registry.remove(watched);
        }
        Gauge.builder(key.name, consumer, ServiceConsumer::consumersRunning)
                .description(key.description()).tags(key.tags())
                .register(registry);
        return this;
    }

    /**
     * The same as {@link #watch(ServiceConsumer)}: the form the API had before the AMQP 1.0 consumer, kept so that
     * callers compiled against it still link.
     */
    public MicrometerRetryMetrics watch(RetryingConsumer consumer) {
        return watch((ServiceConsumer) consumer);
    }

    @Override
    public Observation handling(DeliveryContext context) {
        Timer.Sample sample = Timer.start(registry);
        return (outcome, failure) -> sample.stop(timer(Key.of("messaging.process.duration", context)
                .with(outcome.id(), failure == null ? NONE : failure.getClass().getName(), null)));
    }

    @Override
    public void onSuccess(DeliveryContext context) {
        counter(Key.of("retry.messages", context).with("success", NONE, NONE)).increment();
    }

    @Override
    public void onRetry(DeliveryContext context, Throwable failure, Tier tier) {
        counter(Key.of("retry.messages", context).with("retry", Integer.toString(tier.number()), NONE)).increment();
    }

    @Override
    public void onRequeued(DeliveryContext context, Throwable failure, Decision.Requeue requeue) {
        counter(Key.of("retry.messages", context).with("retry", BROKER, NONE)).increment();
    }

    @Override
    public void onPark(DeliveryContext context, @Nullable Throwable failure, Decision.Park park) {
        counter(Key.of("retry.messages", context).with("park", NONE, park.reason().id())).increment();
    }

    @Override
    public void onRepublished(DeliveryContext context, String queue, Duration latency) {
        timer(Key.of("retry.republish.duration", context.service()).with(queue, null, null)).record(latency);
    }

    @Override
    public void onRepublishFailed(DeliveryContext context, String reason) {
        counter(Key.of("retry.republish.failures", context)).increment();
    }

    @Override
    public void onRedelivery(DeliveryContext context, int deliveryCount) {
        counter(Key.of("retry.redeliveries", context)).increment();
    }

    @Override
    public void onConsumerLost(Service service, String reason) {
        counter(Key.of("retry.consumers.lost", service)).increment();
    }

    private Counter counter(Key key) {
        Counter counter = counters.get(key);
        return counter != null ? counter
                : counters.computeIfAbsent(key, k -> Counter.builder(k.name)
                        .description(k.description()).tags(k.tags()).register(registry));
    }

    private Timer timer(Key key) {
        Timer timer = timers.get(key);
        return timer != null ? timer
                : timers.computeIfAbsent(key, k -> Timer.builder(k.name)
                        .description(k.description()).tags(k.tags()).register(registry));
    }

    /**
     * A meter's name and the values of its tags: the service's, then the message's (exchange and route, null for
     * a meter of the service), then up to three of the meter's own, whose keys its name decides.
     */
    private record Key(String name, String service, String queue, String protocol, String exchange, String route,
            String first, String second, String third) {

        static Key of(String name, Service service) {
            return new Key(name, service.name(), service.queue(), service.protocol().version(), null, null, null, null,
                    null);
        }

        static Key of(String name, DeliveryContext context) {
            Service service = context.service();
            return new Key(name, service.name(), service.queue(), service.protocol().version(), context.exchange(),
                    context.bindingKey().orElse(NONE), null, null, null);
        }

        Key with(String first, String second, String third) {
            return new Key(name, service, queue, protocol, exchange, route, first, second, third);
        }

        Tags tags() {
            Tags tags = Tags.of("messaging.system", "rabbitmq", "retry.service", service,
                    "messaging.destination.subscription.name", queue, "network.protocol.name", "amqp",
                    "network.protocol.version", protocol);
            if (exchange != null) {
                tags = tags.and("messaging.destination.name", exchange, "retry.route", route);
            }
            return switch (name) {
                case "retry.messages" -> tags.and("retry.outcome", first, "retry.tier", second,
                        "retry.park.reason", third);
                case "messaging.process.duration" -> tags.and("retry.outcome", first, "error.type", second);
                case "retry.republish.duration" -> tags.and("retry.destination", first);
                default -> tags;
            };
        }

        String description() {
            return switch (name) {
                case "retry.messages" -> "messages acknowledged, retried or parked, once the broker has them";
                case "messaging.process.duration" -> "each run of a handler";
                case "retry.republish.duration" -> "from a retry's or park's first send to the broker's confirm";
                case "retry.republish.failures" -> "retries and parks refused, returned or not confirmed in time";
                case "retry.redeliveries" -> "deliveries handed out again after one that ended unanswered";
                case "retry.consumers.lost" -> "consumers cancelled by the broker or whose channel or connection closed";
                case "retry.consumers.running" -> "consumers of the service subscribed to its queue";
                default -> throw new IllegalStateException("no meter " + name);
            };
        }
    }
}
