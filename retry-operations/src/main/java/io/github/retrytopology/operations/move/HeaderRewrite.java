package io.github.retrytopology.operations.move;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;
import io.github.retrytopology.model.headers.Header;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The headers a moved message carries, from the message as the source delivered it: a migration writes the attempts
 * a message made in the old topology into the runtime's headers here. Runs on the thread that moves.
 */
@FunctionalInterface
public interface HeaderRewrite {

    /**
     * The headers of the moved copy; {@code null} for none.
     *
     * @param properties the message's properties as delivered, its headers and expiration included
     * @param envelope how it was delivered to the mover, from the source: its routing key is the one it was
     *     published or dead-lettered with
     */
    @Nullable Map<String, Object> headers(AMQP.BasicProperties properties, Envelope envelope);

    /**
     * The headers as delivered, less the broker's counts of the source's deliveries ({@code x-delivery-count},
     * {@code x-acquired-count}), which describe the mover's delivery, not the message.
     */
    static HeaderRewrite asDelivered() {
        Set<String> broker = Header.COUNTS.stream().map(Header::name).collect(Collectors.toUnmodifiableSet());
        return (properties, envelope) -> {
            if (properties.getHeaders() == null) {
                return null;
            }
            Map<String, Object> headers = new HashMap<>(properties.getHeaders());
            headers.keySet().removeAll(broker);
            return headers;
        };
    }
}
