package io.github.retrytopology.operations.move;

import static java.util.Objects.requireNonNull;

import com.rabbitmq.client.AMQP;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Where the moved messages go: one queue, or one of several chosen for each message, such as the wait queue whose
 * delay fits what the message had left to wait.
 */
public interface Destinations {

    /** Every queue a message may go to, checked before anything moves, in the order a report names them. */
    List<String> queues();

    /**
     * The queue this message goes to; one of {@link #queues()}.
     *
     * @param properties its properties as the source delivered it
     * @param headers the headers its copy carries; null for none
     */
    String choose(AMQP.BasicProperties properties, @Nullable Map<String, Object> headers);

    /** Every message to one queue. */
    static Destinations of(String queue) {
        requireNonNull(queue, "queue");
        return new Destinations() {
            @Override
            public List<String> queues() {
                return List.of(queue);
            }

            @Override
            public String choose(AMQP.BasicProperties properties, @Nullable Map<String, Object> headers) {
                return queue;
            }
        };
    }

    /** How a message names them. */
    default String describe() {
        return String.join(", ", queues());
    }
}
