package io.github.retrytopology.operations.console;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What the console answers a request with: a status, a media type, how long a browser may keep it, and the bytes.
 *
 * @param cacheControl {@code no-store} for the API's answers, which may be secret (the token) or stale in a moment;
 *     {@code no-cache} for the page's files, which change only with the jar
 */
record Reply(int status, String type, String cacheControl, byte[] body) {

    private static final ObjectMapper JSON = new ObjectMapper();

    Reply {
        requireNonNull(type, "type");
        requireNonNull(cacheControl, "cacheControl");
        requireNonNull(body, "body");
    }

    static Reply json(int status, Object value) {
        try {
            return new Reply(status, "application/json; charset=utf-8", "no-store", JSON.writeValueAsBytes(value));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the console could not write its answer as JSON: " + e.getOriginalMessage(), e);
        }
    }

    static Reply ok(Object value) {
        return json(200, value);
    }

    static Reply file(String type, byte[] body) {
        return new Reply(200, type, "no-cache", body);
    }
}
