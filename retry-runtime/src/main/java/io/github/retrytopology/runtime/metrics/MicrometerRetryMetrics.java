package io.github.retrytopology.runtime.metrics;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.Tier;
import io.github.retrytopology.model.decision.Decision;
import io.github.retrytopology.runtime.consumer.DeliveryContext;
import io.github.retrytopology.runtime.consumer.DeliveryObserver;
import io.github.retrytopology.runtime.consumer.RetryListener;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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
 *       {@code success}), retried (with {@code retry.tier}) or parked (with {@code retry.park.reason}), once the
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

    private final MeterRegistry registry;
    private final Map<Tags, Counter> counters = new ConcurrentHashMap<>();
    private final Map<Tags, Timer> timers = new ConcurrentHashMap<>();

    private MicrometerRetryMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Metrics in this registry. */
    public static MicrometerRetryMetrics of(MeterRegistry registry) {
        return new MicrometerRetryMetrics(requireNonNull(registry, "registry"));
    }

    /** Reports how many of this consumer's consumers are subscribed, as {@code retry.consumers.running}. */
    public MicrometerRetryMetrics watch(RetryingConsumer consumer) {
        Gauge.builder("retry.consumers.running", consumer, RetryingConsumer::consumersRunning)
                .description("consumers of the service subscribed to its queue")
                .tags(service(consumer.service()))
                .register(registry);
        return this;
    }

    @Override
    public Observation handling(DeliveryContext context) {
        Timer.Sample sample = Timer.start(registry);
        return (outcome, failure) -> sample.stop(timer("messaging.process.duration", "each handler run",
                message(context).and("retry.outcome", outcome.id(),
                        "error.type", failure == null ? NONE : failure.getClass().getName())));
    }

    @Override
    public void onSuccess(DeliveryContext context) {
        count("retry.messages", messages(context, "success", NONE, NONE));
    }

    @Override
    public void onRetry(DeliveryContext context, Throwable failure, Tier tier) {
        count("retry.messages", messages(context, "retry", String.valueOf(tier.number()), NONE));
    }

    @Override
    public void onPark(DeliveryContext context, Throwable failure, Decision.Park park) {
        count("retry.messages", messages(context, "park", NONE, park.reason().id()));
    }

    @Override
    public void onRepublished(DeliveryContext context, String queue, Duration latency) {
        timer("retry.republish.duration", "from a retry's or park's first send to the broker's confirm",
                service(context.service()).and("retry.destination", queue)).record(latency);
    }

    @Override
    public void onRepublishFailed(DeliveryContext context, String reason) {
        count("retry.republish.failures", message(context));
    }

    @Override
    public void onRedelivery(DeliveryContext context, int deliveryCount) {
        count("retry.redeliveries", message(context));
    }

    @Override
    public void onConsumerLost(Service service, String reason) {
        count("retry.consumers.lost", service(service));
    }

    private void count(String name, Tags tags) {
        counters.computeIfAbsent(tags.and("name", name), key -> Counter.builder(name).tags(tags).register(registry))
                .increment();
    }

    private Timer timer(String name, String description, Tags tags) {
        return timers.computeIfAbsent(tags.and("name", name),
                key -> Timer.builder(name).description(description).tags(tags).register(registry));
    }

    private static Tags messages(DeliveryContext context, String outcome, String tier, String parkReason) {
        return message(context).and("retry.outcome", outcome, "retry.tier", tier, "retry.park.reason", parkReason);
    }

    private static Tags message(DeliveryContext context) {
        return service(context.service()).and("messaging.destination.name", context.exchange(),
                "retry.route", context.bindingKey().orElse(NONE));
    }

    private static Tags service(Service service) {
        return Tags.of("messaging.system", "rabbitmq", "messaging.destination.subscription.name", service.queue(),
                "retry.service", service.name());
    }
}
