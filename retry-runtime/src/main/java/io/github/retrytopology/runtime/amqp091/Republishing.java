package io.github.retrytopology.runtime.amqp091;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;
import io.github.retrytopology.model.headers.Header;
import io.github.retrytopology.runtime.internal.Arrival;
import io.github.retrytopology.runtime.internal.HeaderWriter;
import java.util.HashMap;
import java.util.Map;

/**
 * The retry headers in AMQP 0.9.1's terms, through RabbitMQ's Java client: a delivery's {@link Arrival} from its
 * envelope and properties, and the properties of its retry, park or replay. The headers themselves are written in
 * no protocol's terms ({@link HeaderWriter}); this is what the 0.9.1 consumer and parking lot add.
 */
public final class Republishing {

    private Republishing() {
    }

    /** How a delivery arrived, from what the Java client delivers. */
    public static Arrival arrival(Envelope envelope, AMQP.BasicProperties properties) {
        return new Arrival(envelope.getExchange(), envelope.getRoutingKey(), properties.getExpiration(),
                properties.getMessageId());
    }

    /**
     * Returns a copy of {@code properties} to republish with these headers: made persistent, and without the
     * publisher's {@code expiration}, which {@link Header#ORIGINAL_EXPIRATION} keeps instead. A message without a
     * message id gets a {@link Header#MESSAGE_ID} that stays with it from then on.
     */
    public static AMQP.BasicProperties republish(AMQP.BasicProperties properties, Map<String, Object> headers) {
        return outgoing(properties, new HashMap<>(headers)).properties();
    }

    /**
     * The same as {@link #republish}, for a message that may be sent more than once, each send stamped with its
     * publish sequence number: {@code headers} is taken over, not copied.
     */
    public static Outgoing outgoing(AMQP.BasicProperties properties, Map<String, Object> headers) {
        HeaderWriter.carry(properties.getExpiration(), properties.getMessageId(), headers);
        return new Outgoing(properties, headers);
    }

    /** A message's properties and headers as republished; the headers are written when the properties are built. */
    public static final class Outgoing {
        private final AMQP.BasicProperties original;
        private final Map<String, Object> headers;

        private Outgoing(AMQP.BasicProperties original, Map<String, Object> headers) {
            this.original = original;
            this.headers = headers;
        }

        /** The properties, headers included. */
        public AMQP.BasicProperties properties() {
            return build();
        }

        /** Whether the headers fit in {@code maxBytes} as each send carries them, its publish id included. */
        public synchronized boolean fits(int maxBytes) {
            return HeaderWriter.fits(headers, maxBytes);
        }

        /** The properties of one send, stamped with its publish sequence number on its channel. */
        public synchronized AMQP.BasicProperties stamped(long sequence) {
            Header.PUBLISH_ID.put(headers, sequence);
            return build();
        }

        private AMQP.BasicProperties build() {
            return original.builder().headers(headers).deliveryMode(2).expiration(null).build();
        }
    }
}
