package io.github.retrytopology.operations.internal;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.ShutdownSignalException;

/**
 * What went wrong, in one sentence: the broker's own words where it closed the connection or channel, such as
 * {@code NOT_ALLOWED - vhost orders not found}; else the first message among the causes.
 */
public final class BrokerMessages {

    private BrokerMessages() {
    }

    /** The sentence. */
    public static String of(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof ShutdownSignalException shutdown) {
                if (shutdown.getReason() instanceof AMQP.Connection.Close close) {
                    return close.getReplyText();
                }
                if (shutdown.getReason() instanceof AMQP.Channel.Close close) {
                    return close.getReplyText();
                }
            }
        }
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause.getMessage() != null) {
                return cause.getMessage();
            }
        }
        return e.toString();
    }
}
