package io.github.retrytopology.runtime.codec;

import com.rabbitmq.client.AMQP;

/**
 * Decodes message bodies into the payload types that handlers declare.
 *
 * <p>{@link #builtIn()} decodes {@code byte[]} and {@code String}; {@link JacksonPayloadCodec} decodes JSON
 * into any type, for applications that have Jackson. Combine them with {@link #or(PayloadCodec)}.
 */
public interface PayloadCodec {

    /** Returns whether this codec decodes bodies into {@code type}. Asked once per route, at start-up. */
    boolean canDecode(Class<?> type);

    /**
     * Decodes a body.
     *
     * @throws UndecodablePayloadException if the body is not a valid {@code type}
     */
    <T> T decode(byte[] body, Class<T> type, AMQP.BasicProperties properties);

    /** The codec for {@code byte[]} (the body as it is) and {@code String} (see {@link TextCodec}). */
    static PayloadCodec builtIn() {
        return BytesCodec.INSTANCE.or(TextCodec.INSTANCE);
    }

    /** Returns a codec that asks this one first, then {@code next}, for each type. */
    default PayloadCodec or(PayloadCodec next) {
        PayloadCodec first = this;
        return new PayloadCodec() {
            @Override
            public boolean canDecode(Class<?> type) {
                return first.canDecode(type) || next.canDecode(type);
            }

            @Override
            public <T> T decode(byte[] body, Class<T> type, AMQP.BasicProperties properties) {
                return first.canDecode(type) ? first.decode(body, type, properties) : next.decode(body, type, properties);
            }
        };
    }
}
