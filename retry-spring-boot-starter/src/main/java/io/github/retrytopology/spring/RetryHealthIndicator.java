package io.github.retrytopology.spring;

import io.github.retrytopology.model.Service;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.consumer.ServiceConsumer;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Reports each service's consumers and its parking lot, from the consumers' own state, over either protocol: DOWN
 * while the consumers are stopped or not connected (over AMQP 1.0 too, where a service is consumed over it), while a
 * service's consumers are not all subscribed ({@link ServiceConsumer#isRunning()}; {@link RetryingConsumer} counts
 * one consumer as enough during its cautious start), or when a parking lot holds more messages than
 * {@code retry.health.parking-lot-threshold}.
 *
 * <p>A probe costs the broker nothing but the parking lots' depths, which it reads with a channel and a passive
 * declare per service at most once per {@code retry.health.parking-lot-interval}; in between, and while the
 * consumers are not connected, it reports the depths last read.
 */
final class RetryHealthIndicator extends AbstractHealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(RetryHealthIndicator.class);

    private final RetryConsumers consumers;
    private final Long threshold;
    private final long intervalNanos;
    private final LongSupplier ticker;

    /** The depths last read, and when (by the ticker); guarded by this indicator. */
    private Map<Service, Long> depths = Map.of();
    private long readAt;
    private boolean read;

    RetryHealthIndicator(RetryConsumers consumers, Long threshold, Duration interval, LongSupplier ticker) {
        super("Retry consumers health check failed");
        this.consumers = consumers;
        this.threshold = threshold;
        this.intervalNanos = interval.toNanos();
        this.ticker = ticker;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        if (!consumers.isRunning()) {
            builder.down().withDetail("running", false);
            return;
        }
        boolean connected = consumers.isConnected();
        Map<Service, Long> parked = depths(connected);
        boolean up = connected;
        Map<String, Object> services = new LinkedHashMap<>();
        for (Service service : consumers.services()) {
            ServiceConsumer consumer = consumers.consumer(service);
            boolean subscribed = consumer != null && consumer.isRunning();
            Long depth = parked.get(service);
            up &= subscribed && (threshold == null || depth == null || depth <= threshold);
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("queue", service.queue());
            details.put("protocol", service.protocol().id());
            details.put("consumers", consumers.consumersConfigured(service));
            details.put("consumersRunning", consumer == null ? 0 : consumer.consumersRunning());
            details.put("parkingLot", service.parkingLot());
            if (depth != null) {
                details.put("parked", depth);
            }
            if (threshold != null) {
                details.put("parkedThreshold", threshold);
            }
            services.put(service.name(), details);
        }
        (up ? builder.up() : builder.down()).withDetail("connected", connected);
        consumers.notConnected().ifPresent(reason -> builder.withDetail("notConnected", reason));
        builder.withDetail("services", services);
    }

    /** The parking lots' depths, read again when connected and the last read is older than the interval. */
    private synchronized Map<Service, Long> depths(boolean connected) {
        long now = ticker.getAsLong();
        if (connected && (!read || now - readAt >= intervalNanos)) {
            read = true;
            readAt = now;
            try {
                depths = consumers.parkingLotDepths();
            } catch (IOException e) {
                log.warn("Could not read the parking lots' depths: {}", Refusal.describe(e));
            }
        }
        return depths;
    }
}
