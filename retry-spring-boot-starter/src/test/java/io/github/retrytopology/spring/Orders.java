package io.github.retrytopology.spring;

import io.github.retrytopology.runtime.consumer.DeliveryContext;
import io.github.retrytopology.spring.example.OrdersHandler;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The tests' handler of service orders. An order whose id starts with "fail-once" fails its first attempt, one
 * that starts with "fail" fails every attempt; a cancellation names its order in the body. Handling takes
 * {@link #pause} each time, so that a test can stop the application while handlers run.
 */
public class Orders implements OrdersHandler {

    /** Each order's attempts, in the order they were handled. */
    final Map<String, List<Integer>> attempts = new ConcurrentHashMap<>();
    /** The orders handled successfully, and the cancellations. */
    final List<String> done = new CopyOnWriteArrayList<>();
    final AtomicInteger started = new AtomicInteger();
    final AtomicInteger finished = new AtomicInteger();
    volatile Duration pause = Duration.ZERO;

    @Override
    public void orderPlaced(OrderPlaced order, DeliveryContext context) throws Exception {
        handle(order.orderId(), context);
    }

    @Override
    public void orderCancelled(DeliveryContext context) throws Exception {
        handle(new String(context.body(), StandardCharsets.UTF_8), context);
    }

    private void handle(String id, DeliveryContext context) throws InterruptedException {
        started.incrementAndGet();
        try {
            attempts.computeIfAbsent(id, key -> new CopyOnWriteArrayList<>()).add(context.attempt());
            if (!pause.isZero()) {
                Thread.sleep(pause.toMillis());
            }
            if (id.startsWith("fail-once") && context.attempt() == 1 || id.startsWith("fail-always")) {
                throw new IllegalStateException("the warehouse refused order " + id);
            }
            done.add(id);
        } finally {
            finished.incrementAndGet();
        }
    }
}
