package io.github.retrytopology.model;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import javax.lang.model.SourceVersion;

/**
 * One routing key a service consumes, and the handler method that its messages go to.
 *
 * @param key the binding key, possibly with wildcards
 * @param handler the handler method's name, a Java identifier
 * @param payloadType the binary name of the class the body is decoded into; empty for the raw body
 */
public record Route(BindingKey key, String handler, Optional<String> payloadType) {

    public Route {
        requireNonNull(key, "key");
        requireNonNull(handler, "handler");
        requireNonNull(payloadType, "payloadType");
        if (!SourceVersion.isIdentifier(handler) || SourceVersion.isKeyword(handler)
                || Names.RESERVED_HANDLER_NAMES.contains(handler)) {
            throw new IllegalArgumentException("'" + handler + "' cannot be a handler method name");
        }
    }

    /** A route whose handler is named after its key, with the raw body. */
    public static Route of(String key) {
        BindingKey bindingKey = BindingKey.of(key);
        String handler = Names.handlerMethod(bindingKey)
                .orElseThrow(() -> new IllegalArgumentException("'" + key + "' needs a handler name"));
        return new Route(bindingKey, handler, Optional.empty());
    }

    /** A route with a handler name of its own, with the raw body. */
    public static Route of(String key, String handler) {
        return new Route(BindingKey.of(key), handler, Optional.empty());
    }

    /** A route with a handler name of its own, whose body is decoded into {@code payloadType}. */
    public static Route of(String key, String handler, String payloadType) {
        return new Route(BindingKey.of(key), handler, Optional.of(payloadType));
    }
}
