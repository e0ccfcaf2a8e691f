package io.github.retrytopology.runtime.consumer;

import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports a broker that refuses republishes once per period, not once per message: while a tier queue is full
 * or missing, every failed delivery of the service meets the same refusal.
 */
final class Refusals {

    private static final Logger log = LoggerFactory.getLogger(RetryingConsumer.class);

    private final String service;
    private final Ticker ticker;
    private final long periodNanos;
    private final Set<String> queues = new TreeSet<>();
    private long since;
    private long lastReport;
    private int count;
    private String lastReason;
    private boolean reported;

    Refusals(String service, Ticker ticker, Duration period) {
        this.service = service;
        this.ticker = ticker;
        this.periodNanos = period.toNanos();
    }

    /** A send to {@code queue} failed for {@code reason}. */
    synchronized void refused(String queue, String reason) {
        long now = ticker.nanos();
        if (count == 0) {
            since = now;
        }
        count++;
        queues.add(queue);
        lastReason = reason;
        if (!reported || now - lastReport >= periodNanos) {
            log.warn("{}: {} republish(es) to {} failed in the last {} ms, the last because {}; their deliveries "
                    + "wait unacknowledged and are sent again after a back-off", service, count, queues,
                    (now - since) / 1_000_000, lastReason);
            reported = true;
            lastReport = now;
            count = 0;
            queues.clear();
        }
    }

    /** A republish to {@code queue} that had failed went through. */
    synchronized void accepted(String queue) {
        if (reported) {
            log.info("{}: the broker takes republishes to {} again", service, queue);
            reported = false;
            count = 0;
            queues.clear();
        }
    }
}
