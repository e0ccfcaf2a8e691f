package io.github.retrytopology.operations.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Optional;

/**
 * One request as a handler reads it: its route's path parameters, its query, its JSON body, and who sent it, as
 * the console's checks established before routing it.
 *
 * @param operator who acts: the console's {@code --as} name, or the user its authenticating proxy names
 */
record Request(HttpExchange exchange, Map<String, String> parameters, String operator) {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The largest body an action sends. */
    static final int MAX_BODY = 1024 * 1024;

    Request {
        parameters = Map.copyOf(parameters);
    }

    /** A parameter of the route's pattern, decoded. */
    String parameter(String name) {
        String value = parameters.get(name);
        if (value == null) {
            throw new IllegalStateException("the route has no parameter {" + name + "}");
        }
        return value;
    }

    /** A query parameter as sent, or none. */
    Optional<String> query(String name) {
        String query = exchange.getRequestURI().getRawQuery();
        if (query == null) {
            return Optional.empty();
        }
        for (String parameter : query.split("&")) {
            if (parameter.startsWith(name + "=")) {
                return Optional.of(parameter.substring(name.length() + 1));
            }
        }
        return Optional.empty();
    }

    /**
     * The body, a JSON object of at most {@value #MAX_BODY} bytes.
     *
     * @throws ConsoleException 413 if it is larger, 400 if it is not a JSON object
     */
    JsonNode body() throws IOException {
        byte[] bytes;
        try (InputStream in = exchange.getRequestBody()) {
            bytes = in.readNBytes(MAX_BODY + 1);
        }
        if (bytes.length > MAX_BODY) {
            throw new ConsoleException(413, "an action's request is at most " + MAX_BODY + " bytes");
        }
        JsonNode body;
        try {
            body = JSON.readTree(bytes);
        } catch (JsonProcessingException e) {
            throw ConsoleException.badRequest("the request is not JSON: " + e.getOriginalMessage());
        }
        if (body == null || !body.isObject()) {
            throw ConsoleException.badRequest("the request is a JSON object");
        }
        return body;
    }
}
