package io.github.retrytopology.runtime.testing;

import com.rabbitmq.client.AMQP;
import io.github.retrytopology.runtime.amqp091.Received;
import io.github.retrytopology.runtime.headers.RetryHeaders;

/**
 * The retry headers of a message a test took from a queue itself, read as the runtime's AMQP 0.9.1 adapter reads
 * them: the Java client's long strings as strings, which is all {@link RetryHeaders} reads.
 */
public final class Delivered {

    private Delivered() {
    }

    /** The retry headers of a message with these properties, as the Java client delivered them. */
    public static RetryHeaders headers(AMQP.BasicProperties properties) {
        return RetryHeaders.of(Received.headers(properties.getHeaders()));
    }
}
