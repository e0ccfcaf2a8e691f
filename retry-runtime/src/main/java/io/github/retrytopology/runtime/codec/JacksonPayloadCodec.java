package io.github.retrytopology.runtime.codec;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;
import java.io.IOException;
import java.util.List;

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
    public <T> T decode(byte[] body, Class<T> type, AMQP.BasicProperties properties) {
        try {
            return mapper.readValue(body, type);
        } catch (JsonMappingException e) {
            String path = path(e.getPath());
            throw new UndecodablePayloadException("JSON that does not fit " + type.getName()
                    + (path.isEmpty() ? "" : " at " + path) + ": " + e.getOriginalMessage(), e);
        } catch (JacksonException e) {
            throw new UndecodablePayloadException("invalid JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new UndecodablePayloadException("unreadable JSON: " + e.getMessage(), e);
        }
    }

    /** Where in the document the value that did not fit is, such as {@code photos[2].id}. */
    private static String path(List<JsonMappingException.Reference> references) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference reference : references) {
            if (reference.getFieldName() != null) {
                path.append(path.length() == 0 ? "" : ".").append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }
}
