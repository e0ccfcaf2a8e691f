package io.github.retrytopology.runtime.consumer;

import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.Tier;
import io.github.retrytopology.model.decision.Decision;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/** Records what a consumer's listener hears, and on which threads, for the tests to look at. */
final class RecordingListener implements RetryListener {

    final AtomicInteger successes = new AtomicInteger();
    final List<Tier> retries = new CopyOnWriteArrayList<>();
    final List<Decision.Park> parks = new CopyOnWriteArrayList<>();
    final List<String> republishFailures = new CopyOnWriteArrayList<>();
    final List<Integer> redeliveries = new CopyOnWriteArrayList<>();
    /** "lost: reason" and "restored", in order. */
    final List<String> consumers = new CopyOnWriteArrayList<>();
    final List<String> threads = new CopyOnWriteArrayList<>();
    /** What {@link #onRetry} waits for before it returns; open unless a test closes it. */
    volatile CountDownLatch retryGate = new CountDownLatch(0);

    @Override
    public void onSuccess(DeliveryContext context) {
        threads.add(Thread.currentThread().getName());
        successes.incrementAndGet();
    }

    @Override
    public void onRetry(DeliveryContext context, Throwable failure, Tier tier) {
        threads.add(Thread.currentThread().getName());
        retries.add(tier);
        try {
            retryGate.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void onPark(DeliveryContext context, Throwable failure, Decision.Park park) {
        threads.add(Thread.currentThread().getName());
        parks.add(park);
    }

    @Override
    public void onRepublishFailed(DeliveryContext context, String reason) {
        republishFailures.add(reason);
    }

    @Override
    public void onRedelivery(DeliveryContext context, int deliveryCount) {
        redeliveries.add(deliveryCount);
    }

    @Override
    public void onConsumerLost(Service service, String reason) {
        consumers.add("lost: " + reason);
    }

    @Override
    public void onConsumerRestored(Service service) {
        consumers.add("restored");
    }
}
