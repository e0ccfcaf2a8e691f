package io.github.retrytopology.runtime.codec;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * JSON bodies into any type, with Jackson. A body that is not JSON is "invalid JSON"; JSON that does not fit the
 * type (a string where a number belongs, a missing creator property) says which value did not fit, and why. Jackson is an optional dependency of this library: add
 * {@code com.fasterxml.jackson.core:jackson-databind} to use this codec.
 *
 * <pre>{@code
 * PayloadCodec codec = PayloadCodec.builtIn().or(new JacksonPayloadCodec(new ObjectMapper()));
 * }</pre>
 */
public final class JacksonPayloadCodec implements PayloadCodec {

    private final ObjectMapper mapper;

    /** A codec that reads bodies with this mapper, configured as the application configures it. */
    @SuppressWarnings("exports") // Jackson is optional: a module that calls this requires it itself
    public JacksonPayloadCodec(ObjectMapper mapper) {
        this.mapper = requireNonNull(mapper, "mapper");
    }

    /** Jackson decodes into any class; whether it can for a given body shows only when decoding. */
    @Override
    public boolean canDecode(Class<?> type) {
        return !type.isPrimitive();
    }

    @Override
    public <T> T decode(byte[] body, Class<T> type, @Nullable String contentType) {
        try {
            return mapper.readValue(body, type);
        } catch (JsonMappingException e) {
            throw JsonFailures.misfit(type, e.getPath().stream()
                    .map(step -> new JsonFailures.Step(step.getFieldName(), step.getIndex())).toList(),
                    e.getOriginalMessage(), e);
        } catch (JacksonException e) {
            throw JsonFailures.invalid(e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new UndecodablePayloadException("unreadable JSON: " + e.getMessage(), e);
        }
    }
}
