package io.github.retrytopology.spring;

import io.github.retrytopology.model.Service;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Reports each service's consumers and its parking lot: DOWN while the consumers are stopped, while a service's
 * consumers are not all subscribed ({@link RetryingConsumer#isRunning()}, which counts one consumer as enough during
 * its cautious start), or when a parking lot holds more messages than {@code retry.health.parking-lot-threshold}.
 */
final class RetryHealthIndicator extends AbstractHealthIndicator {

    private final RetryConsumers consumers;
    private final Long threshold;

    RetryHealthIndicator(RetryConsumers consumers, Long threshold) {
        super("Retry consumers health check failed");
        this.consumers = consumers;
        this.threshold = threshold;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) throws Exception {
        if (!consumers.isRunning()) {
            builder.down().withDetail("running", false);
            return;
        }
        Map<Service, Long> depths = consumers.parkingLotDepths();
        boolean up = true;
        Map<String, Object> services = new LinkedHashMap<>();
        for (Service service : consumers.services()) {
            RetryingConsumer consumer = consumers.consumer(service);
            int running = consumer == null ? 0 : consumer.consumersRunning();
            boolean subscribed = consumer != null && consumer.isRunning();
            long parked = depths.getOrDefault(service, 0L);
            boolean overThreshold = threshold != null && parked > threshold;
            up &= subscribed && !overThreshold;
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("queue", service.queue());
            details.put("consumers", consumers.consumersConfigured(service));
            details.put("consumersRunning", running);
            details.put("parkingLot", service.parkingLot());
            details.put("parked", parked);
            if (threshold != null) {
                details.put("parkedThreshold", threshold);
            }
            services.put(service.name(), details);
        }
        (up ? builder.up() : builder.down()).withDetail("services", services);
    }
}
