package io.github.retrytopology.operations.plan;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;
import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.model.headers.DeathField;
import io.github.retrytopology.model.headers.Header;
import io.github.retrytopology.model.topology.QueueSetting;
import io.github.retrytopology.operations.adopt.AdoptionRecord.AttemptCount;
import io.github.retrytopology.operations.adopt.AdoptionRecord.OldQueue;
import io.github.retrytopology.operations.adopt.AdoptionRecord.Role;
import io.github.retrytopology.operations.move.HeaderRewrite;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;

/**
 * The headers a message carries out of an old queue into the spec's topology: the runtime's own, which it trusts on
 * a message that arrives through the default exchange with {@link Header#ADOPTED_FROM}, so that the message
 * keeps the attempts it made in the old topology, and its handler is chosen by the routing key it was published
 * with rather than the queue's name it travels under.
 *
 * <ul>
 *   <li>{@link Header#ATTEMPTS}: its failures as the old topology counted them (the record's
 *       {@link AttemptCount}); a message waiting for a retry has failed at least once, when nothing says how often;
 *   <li>{@link Header#ORIGINAL_ROUTING_KEY}: the key it comes back to its work queue with: the wait queue's
 *       {@code x-dead-letter-routing-key}, or its own;
 *   <li>for a failed queue's message, the park headers, saying where it was given up and what {@code x-death}
 *       says of it.
 * </ul>
 * A message that carries {@link Header#ADOPTED_FROM} already was moved by an earlier run that was
 * interrupted: it keeps its headers.
 */
final class AdoptedHeaders implements HeaderRewrite {

    private final OldQueue queue;
    private final String exchange;
    private final Clock clock;

    /**
     * @param queue the old queue the messages leave
     * @param exchange the spec's exchange, which the messages were published to as far as the runtime knows
     */
    AdoptedHeaders(OldQueue queue, String exchange, Clock clock) {
        this.queue = queue;
        this.exchange = exchange;
        this.clock = clock;
    }

    @Override
    public Map<String, Object> headers(AMQP.BasicProperties properties, Envelope envelope) {
        Map<String, Object> delivered = HeaderRewrite.asDelivered().headers(properties, envelope);
        Map<String, Object> headers = delivered == null ? new HashMap<>() : delivered;
        if (headers.containsKey(Header.ADOPTED_FROM.name())) {
            return headers;
        }
        OptionalInt counted = queue.attempts().failures(properties.getHeaders());
        int failures = counted.orElse(queue.role() == Role.WORK ? 0 : 1);
        if (failures > 0) {
            Header.ATTEMPTS.put(headers, failures);
        }
        Header.ADOPTED_FROM.put(headers, queue.queue());
        Header.ORIGINAL_EXCHANGE.put(headers, exchange);
        Header.ORIGINAL_ROUTING_KEY.put(headers, routingKey(envelope));
        if (queue.role() == Role.FAILED) {
            Header.PARK_REASON.put(headers, ParkReason.ATTEMPTS_EXHAUSTED.id());
            Header.PARK_DETAIL.put(headers, "given up by the old topology: it was in '" + queue.queue()
                    + "' when the virtual host was adopted" + deaths(properties.getHeaders()));
            Header.PARKED_AT.put(headers, clock.instant().toString());
        }
        return headers;
    }

    /** The key the message has when it comes back to its work queue. */
    private String routingKey(Envelope envelope) {
        Object key = queue.arguments().get(QueueSetting.DEAD_LETTER_ROUTING_KEY.argument());
        return queue.role() == Role.WAIT && key != null ? key.toString() : envelope.getRoutingKey();
    }

    /** What {@code x-death} says of the message, as a clause: each queue, why, and how often. */
    private static String deaths(@Nullable Map<String, Object> headers) {
        List<?> deaths = headers == null ? List.of() : Header.X_DEATH.in(headers).orElse(List.of());
        if (deaths.isEmpty()) {
            return "";
        }
        StringBuilder said = new StringBuilder("; " + Header.X_DEATH + ":");
        String separator = " ";
        for (Object death : deaths) {
            if (death instanceof Map<?, ?> entry) {
                said.append(separator).append(entry.get(DeathField.REASON.name()))
                        .append(" from '").append(entry.get(DeathField.QUEUE.name()))
                        .append("' ").append(entry.get(DeathField.COUNT.name())).append(" time(s)");
                separator = ", ";
            }
        }
        return said.toString();
    }
}
