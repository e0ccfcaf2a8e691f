package io.github.retrytopology.runtime.codec;

import org.jspecify.annotations.Nullable;


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
     * @param contentType the message's content type, such as {@code text/plain; charset=ISO-8859-1}; null if it
     *     has none
     * @throws UndecodablePayloadException if the body is not a valid {@code type}
     */
    <T> T decode(byte[] body, Class<T> type, @Nullable String contentType);

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
            public <T> T decode(byte[] body, Class<T> type, @Nullable String contentType) {
                return first.canDecode(type) ? first.decode(body, type, contentType) : next.decode(body, type, contentType);
            }
        };
    }
}
