package io.github.retrytopology.model.internal;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.BindingKey;
import io.github.retrytopology.model.Route;
import io.github.retrytopology.model.Service;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A service's routes indexed for routing delivery after delivery, each carrying a value of the caller's. It finds
 * the first route in the spec's order whose key matches, as RabbitMQ's topic exchange would: with one hash lookup
 * for a routing key that equals a key without wildcards, and only the wildcard keys tried otherwise.
 *
 * @param <T> what each route carries, such as its handler
 */
public final class RouteIndex<T> {

    private final Map<String, T> exact;
    private final List<BindingKey> patterns;
    private final List<T> patternValues;

    private RouteIndex(Map<String, T> exact, List<BindingKey> patterns, List<T> patternValues) {
        this.exact = exact;
        this.patterns = patterns;
        this.patternValues = patternValues;
    }

    /** Indexes a service's routes, each with the value {@code value} gives it. */
    public static <T> RouteIndex<T> of(Service service, Function<Route, T> value) {
        requireNonNull(value, "value");
        Map<String, T> exact = new HashMap<>();
        List<BindingKey> patterns = new ArrayList<>();
        List<T> patternValues = new ArrayList<>();
        for (Route route : service.routes()) {
            BindingKey key = route.key();
            if (key.hasWildcards()) {
                patterns.add(key);
                patternValues.add(requireNonNull(value.apply(route), "value"));
            } else if (patterns.stream().noneMatch(pattern -> pattern.matches(key.value()))) {
                // A key that an earlier wildcard key takes is never reached: the wildcard's route answers for it.
                exact.put(key.value(), requireNonNull(value.apply(route), "value"));
            }
        }
        return new RouteIndex<>(Map.copyOf(exact), List.copyOf(patterns), List.copyOf(patternValues));
    }

    /** The value of the first route whose key matches this routing key; null if none does. */
    public @Nullable T find(String routingKey) {
        T value = exact.get(routingKey);
        if (value != null) {
            return value;
        }
        for (int i = 0; i < patterns.size(); i++) {
            if (patterns.get(i).matches(routingKey)) {
                return patternValues.get(i);
            }
        }
        return null;
    }
}
