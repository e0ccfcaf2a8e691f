package io.github.retrytopology.operations.plan;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.retrytopology.operations.broker.BrokerAccess;
import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The ready messages and the consumers of queues, as the broker counts them at the moment it is asked: a passive
 * declaration over AMQP each. The management API's statistics lag by up to its collection interval (5 s by default)
 * and have nothing yet for a queue created a moment ago, so a plan that read only them could say a queue holds
 * nothing when it holds what just arrived.
 */
final class LiveCounts {

    /** How long the broker's AMQP listener has to answer before the plan makes do with the statistics. */
    static final Duration CONNECT = Duration.ofSeconds(10);

    /** A queue's ready messages and consumers. */
    record Count(long ready, long consumers) {
    }

    private LiveCounts() {
    }

    /**
     * Counts each queue that exists; one that does not is left out.
     *
     * @throws IOException if no AMQP listener answers, or the broker refuses the user
     */
    static Map<String, Count> read(BrokerAccess access, String vhost, Collection<String> queues) throws IOException {
        Map<String, Count> counts = new LinkedHashMap<>();
        if (queues.isEmpty()) {
            return counts;
        }
        try (Connection connection = access.connect(vhost, "retry-plan", CONNECT)) {
            Channel channel = connection.createChannel();
            for (String queue : queues) {
                if (!channel.isOpen()) {
                    channel = connection.createChannel(); // a queue deleted since it was read closed the last one
                }
                try {
                    AMQP.Queue.DeclareOk declared = channel.queueDeclarePassive(queue);
                    counts.put(queue, new Count(declared.getMessageCount(), declared.getConsumerCount()));
                } catch (IOException e) {
                    if (!connection.isOpen()) {
                        throw e;
                    }
                    // Deleted since the definitions were read (404 closes the channel): the plan shows what it read.
                }
            }
        }
        return counts;
    }
}
