package io.github.retrytopology.it.chaos;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import io.github.retrytopology.runtime.testing.Patience;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The messages of a chaos run and what their handler is to do with each: 70% succeed at once; 28% fail one to
 * three times and then succeed, within the four attempts; 2% fail every time and belong in the parking lot.
 * Poison messages halt the consumer's JVM. Whether a message fails depends on its id only, so that every process
 * and every run agrees.
 */
final class Workload {

    static final String EXCHANGE = RetryTopology.EXCHANGE;
    static final String ROUTING_KEY = "work.item";
    /** A message whose handler never fails it, so that it is parked only after all its attempts. */
    static final int NEVER = Integer.MAX_VALUE;

    final List<String> ids;
    final Set<String> poison;

    private Workload(List<String> ids, Set<String> poison) {
        this.ids = List.copyOf(ids);
        this.poison = Set.copyOf(poison);
    }

    /** {@code size} messages, {@code m-00000} onwards. */
    static Workload of(int size) {
        return withPoison(size, Set.of());
    }

    /** {@code size} messages, of which those at {@code positions} are poison. */
    static Workload withPoison(int size, Set<Integer> positions) {
        List<String> ids = new ArrayList<>();
        List<String> poison = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            String id = (positions.contains(i) ? "poison-" : "m-") + String.format("%05d", i);
            ids.add(id);
            if (positions.contains(i)) {
                poison.add(id);
            }
        }
        return new Workload(ids, Set.copyOf(poison));
    }

    /** How many times the handler fails the message with this id before it succeeds; {@link #NEVER} if it never does. */
    static int failures(String id) {
        if (isPoison(id)) {
            return NEVER;
        }
        int n = Integer.parseInt(id.substring(id.indexOf('-') + 1));
        int slot = (int) (((n * 2_654_435_761L) >>> 8) % 100);
        if (slot < 70) {
            return 0;
        }
        if (slot < 85) {
            return 1;
        }
        if (slot < 93) {
            return 2;
        }
        return slot < 98 ? 3 : NEVER;
    }

    static boolean isPoison(String id) {
        return id.startsWith("poison-");
    }

    /** Publishes every message, persistent, with publisher confirms in batches. */
    void publish(Channel channel) throws Exception {
        channel.confirmSelect();
        int unconfirmed = 0;
        for (String id : ids) {
            AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().messageId(id)
                    .contentType("text/plain").deliveryMode(2).build();
            channel.basicPublish(EXCHANGE, ROUTING_KEY, true, properties, id.getBytes(StandardCharsets.UTF_8));
            if (++unconfirmed == 200) {
                channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
                unconfirmed = 0;
            }
        }
        channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
    }
}
