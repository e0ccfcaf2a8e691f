package io.github.retrytopology.runtime.codec;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Text in the charset the content type names ({@code text/plain; charset=ISO-8859-1}), UTF-8 when it names
 * none. A body that is not valid in its charset is undecodable, not silently mangled.
 */
final class TextCodec implements PayloadCodec {

    static final TextCodec INSTANCE = new TextCodec();

    private static final Pattern CHARSET = Pattern.compile(";\\s*charset=\"?([^\";\\s]+)\"?", Pattern.CASE_INSENSITIVE);

    @Override
    public boolean canDecode(Class<?> type) {
        return type == String.class;
    }

    @Override
    public <T> T decode(byte[] body, Class<T> type, @Nullable String contentType) {
        Charset charset = charset(contentType);
        try {
            String text = charset.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body))
                    .toString();
            return type.cast(text);
        } catch (CharacterCodingException e) {
            throw new UndecodablePayloadException("not valid " + charset.name() + " text", e);
        }
    }

    private static Charset charset(@Nullable String contentType) {
        if (contentType == null) {
            return StandardCharsets.UTF_8;
        }
        Matcher matcher = CHARSET.matcher(contentType);
        if (!matcher.find()) {
            return StandardCharsets.UTF_8;
        }
        String name = matcher.group(1).toUpperCase(Locale.ROOT);
        try {
            return Charset.forName(name);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            throw new UndecodablePayloadException("the content type names charset " + name + ", which this JVM lacks", e);
        }
    }
}
