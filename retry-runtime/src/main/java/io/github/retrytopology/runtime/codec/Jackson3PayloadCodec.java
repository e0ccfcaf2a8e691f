package io.github.retrytopology.runtime.codec;

import static java.util.Objects.requireNonNull;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.ObjectMapper;

/**
 * JSON bodies into any type, with Jackson 3 ({@code tools.jackson}), the Jackson of Spring Boot 4. It reports as
 * {@link JacksonPayloadCodec} does for Jackson 2: a body that is not JSON is "invalid JSON"; JSON that does not fit
 * the type says which value did not fit, and why. Jackson 3 is an optional dependency of this library: add
 * {@code tools.jackson.core:jackson-databind} to use this codec.
 *
 * <pre>{@code
 * PayloadCodec codec = PayloadCodec.builtIn().or(new Jackson3PayloadCodec(JsonMapper.builder().build()));
 * }</pre>
 */
public final class Jackson3PayloadCodec implements PayloadCodec {

    private final ObjectMapper mapper;

    /** A codec that reads bodies with this mapper, configured as the application configures it. */
    @SuppressWarnings("exports") // Jackson is optional: a module that calls this requires it itself
    public Jackson3PayloadCodec(ObjectMapper mapper) {
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
        } catch (DatabindException e) {
            throw JsonFailures.misfit(type, e.getPath().stream()
                    .map(step -> new JsonFailures.Step(step.getPropertyName(), step.getIndex())).toList(),
                    e.getOriginalMessage(), e);
        } catch (JacksonException e) {
            throw JsonFailures.invalid(e.getOriginalMessage(), e);
        }
    }
}
