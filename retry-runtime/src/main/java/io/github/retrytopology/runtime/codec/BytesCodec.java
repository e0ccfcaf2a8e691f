package io.github.retrytopology.runtime.codec;

import org.jspecify.annotations.Nullable;

/** The body as it is. */
final class BytesCodec implements PayloadCodec {

    static final BytesCodec INSTANCE = new BytesCodec();

    @Override
    public boolean canDecode(Class<?> type) {
        return type == byte[].class;
    }

    @Override
    public <T> T decode(byte[] body, Class<T> type, @Nullable String contentType) {
        return type.cast(body.clone());
    }
}
