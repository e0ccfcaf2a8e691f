package io.github.retrytopology.operations.console;

import static java.util.Objects.requireNonNull;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The console's route table: a method and a path pattern, such as {@code GET /api/services/{service}/groups}, to
 * the handler that answers it. A path that a route's pattern matches under another method is answered 405 with the
 * methods it takes; one that no pattern matches, 404.
 */
final class Routes {

    /** Answers one request. */
    @FunctionalInterface
    interface Handler {
        Reply handle(Request request) throws Exception;
    }

    /** A request's route: its handler, and the pattern's {@code {name}} segments as the path gave them. */
    record Match(Handler handler, Map<String, String> parameters) {
    }

    /** One route; a pattern's segment {@code {name}} matches any one segment of a path. */
    private record Route(String method, List<String> pattern, Handler handler) {
    }

    private final List<Route> routes = new ArrayList<>();

    Routes get(String pattern, Handler handler) {
        return add("GET", pattern, handler);
    }

    Routes post(String pattern, Handler handler) {
        return add("POST", pattern, handler);
    }

    private Routes add(String method, String pattern, Handler handler) {
        requireNonNull(handler, "handler");
        if (!pattern.startsWith("/")) {
            throw new IllegalArgumentException("a route's pattern starts with '/', got '" + pattern + "'");
        }
        routes.add(new Route(method, List.of(pattern.substring(1).split("/", -1)), handler));
        return this;
    }

    /**
     * Finds the route of a request.
     *
     * @param rawPath the path as the request sent it, its segments still %-escaped
     * @throws ConsoleException 404 if no route has the path, 405 if none has it under this method
     */
    Match match(String method, String rawPath) {
        List<String> path = segments(rawPath);
        Set<String> allowed = new TreeSet<>();
        for (Route route : routes) {
            Map<String, String> parameters = parameters(route.pattern(), path);
            if (parameters == null) {
                continue;
            }
            if (route.method().equals(method)) {
                return new Match(route.handler(), parameters);
            }
            allowed.add(route.method());
        }
        if (allowed.isEmpty()) {
            throw ConsoleException.notFound(rawPath.startsWith("/api/") ? "no API " + rawPath : "no page " + rawPath);
        }
        throw new ConsoleException(405, method + " " + rawPath + " is not allowed; use " + String.join(" or ", allowed))
                .allowing(allowed);
    }

    /** The pattern's parameters in the path, or null if the path is not the pattern's. */
    private static @Nullable Map<String, String> parameters(List<String> pattern, List<String> path) {
        if (pattern.size() != path.size()) {
            return null;
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        for (int i = 0; i < pattern.size(); i++) {
            String expected = pattern.get(i);
            if (expected.startsWith("{") && expected.endsWith("}")) {
                if (path.get(i).isEmpty()) {
                    return null;
                }
                parameters.put(expected.substring(1, expected.length() - 1), path.get(i));
            } else if (!expected.equals(path.get(i))) {
                return null;
            }
        }
        return parameters;
    }

    /** The path's segments, each decoded: ids and names may hold any character, '/' included. */
    private static List<String> segments(String rawPath) {
        List<String> segments = new ArrayList<>();
        for (String segment : rawPath.substring(rawPath.startsWith("/") ? 1 : 0).split("/", -1)) {
            try {
                // URLDecoder reads '+' as a space, as in a form; in a path it is itself.
                segments.add(URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw ConsoleException.badRequest("the path has a broken %-escape: " + segment);
            }
        }
        return segments;
    }
}
