package io.github.retrytopology.spring;

import io.github.retrytopology.runtime.consumer.DeliveryContext;
import io.github.retrytopology.spring.amqp10.PaymentsHandler;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The tests' handler of service payments, consumed over AMQP 1.0. A payment whose id, the body, starts with
 * "fail-twice" fails its first two attempts; one that starts with "fail-always" fails every attempt.
 */
public class Payments implements PaymentsHandler {

    /** Each payment's attempts, in the order they were handled. */
    final Map<String, List<Integer>> attempts = new ConcurrentHashMap<>();
    /** The payments handled successfully. */
    final List<String> done = new CopyOnWriteArrayList<>();

    @Override
    public void paymentCaptured(DeliveryContext context) {
        String id = new String(context.body(), StandardCharsets.UTF_8);
        attempts.computeIfAbsent(id, key -> new CopyOnWriteArrayList<>()).add(context.attempt());
        if (id.startsWith("fail-twice") && context.attempt() <= 2 || id.startsWith("fail-always")) {
            throw new IllegalStateException("the bank refused payment " + id + " on attempt " + context.attempt());
        }
        done.add(id);
    }
}
