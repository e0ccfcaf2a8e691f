package io.github.retrytopology.spring;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.ShutdownSignalException;
import java.util.Optional;

/**
 * What the broker answered when it closed a channel or the connection on the consumers, such as
 * {@code 404 NOT_FOUND - no queue 'cdn-purge' in vhost 'media'}. The client reports it as the cause of an
 * {@code IOException} that has no message of its own.
 *
 * @param code the reply code, such as 404
 * @param text the reply text, such as {@code NOT_FOUND - no queue 'cdn-purge' in vhost 'media'}
 */
record Refusal(int code, String text) {

    /** AMQP's reply code for a queue, exchange or virtual host that does not exist. */
    static final int NOT_FOUND = AMQP.NOT_FOUND;

    /** The broker's answer among the causes of this failure, if it closed a channel or the connection. */
    static Optional<Refusal> of(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ShutdownSignalException signal) {
                if (signal.getReason() instanceof AMQP.Channel.Close close) {
                    return Optional.of(new Refusal(close.getReplyCode(), close.getReplyText()));
                }
                if (signal.getReason() instanceof AMQP.Connection.Close close) {
                    return Optional.of(new Refusal(close.getReplyCode(), close.getReplyText()));
                }
            }
        }
        return Optional.empty();
    }

    /** The failure in a sentence: the broker's answer, else the failure's own words and its type. */
    static String describe(Throwable failure) {
        return of(failure).map(Refusal::text).orElseGet(() -> {
            Throwable cause = failure;
            while (cause.getMessage() == null && cause.getCause() != null) {
                cause = cause.getCause();
            }
            return cause.toString();
        });
    }
}
