package io.github.retrytopology.runtime.consumer;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.Route;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.internal.RouteIndex;
import io.github.retrytopology.runtime.codec.PayloadCodec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The handlers of one service, one per routing key of its spec. A delivery goes to the handler of the first
 * key, in the spec's order, that matches its original routing key with RabbitMQ's topic semantics.
 *
 * <pre>{@code
 * Routes routes = Routes.builder(RetryTopology.CDN_PURGE)
 *         .on("photo.deleted", context -> purge(context.body()))
 *         .on("album.*.deleted", AlbumDeleted.class, (album, context) -> purge(album))
 *         .build();
 * }</pre>
 * The generated handler interfaces build their routes this way.
 */
public final class Routes {

    private final Service service;
    private final Map<Route, Target> targets;
    private final RouteIndex<Dispatch> index;

    private Routes(Service service, Map<Route, Target> targets) {
        this.service = service;
        this.targets = targets;
        this.index = RouteIndex.of(service, route -> new Dispatch(route, targets.get(route)));
    }

    /** Starts the routes of a service; each of its routing keys needs a handler. */
    public static Builder builder(Service service) {
        return new Builder(requireNonNull(service, "service"));
    }

    /** The service these routes belong to. */
    public Service service() {
        return service;
    }

    /** Returns the route that takes a routing key, and its handler; null if none does. */
    @Nullable Dispatch dispatch(String routingKey) {
        return index.find(routingKey);
    }

    /**
     * The routing keys whose payload type the codec cannot decode, each with that type, such as
     * {@code album.*.deleted (com.acme.media.AlbumDeleted)}; empty if it decodes them all.
     */
    public List<String> undecodable(PayloadCodec codec) {
        return targets.entrySet().stream()
                .filter(entry -> entry.getValue() instanceof Typed<?> typed && !codec.canDecode(typed.type()))
                .map(entry -> entry.getKey().key() + " (" + ((Typed<?>) entry.getValue()).type().getName() + ")")
                .toList();
    }

    /** Checks that the codec decodes every payload type, so that a missing codec fails at start-up. */
    void requireDecodable(PayloadCodec codec) {
        List<String> missing = undecodable(codec);
        if (!missing.isEmpty()) {
            throw new IllegalStateException("the codec cannot decode the payloads of " + String.join(", ", missing)
                    + "; configure one that can, such as PayloadCodec.builtIn().or(new JacksonPayloadCodec(mapper))");
        }
    }

    /** A route and its handler, chosen for one delivery. */
    record Dispatch(Route route, Target target) {
        void handle(DeliveryContext context, PayloadCodec codec) throws Exception {
            target.handle(context, codec);
        }
    }

    /** A handler, with or without a payload type. */
    sealed interface Target permits Raw, Typed {
        void handle(DeliveryContext context, PayloadCodec codec) throws Exception;
    }

    record Raw(MessageHandler handler) implements Target {
        @Override
        public void handle(DeliveryContext context, PayloadCodec codec) throws Exception {
            handler.handle(context);
        }
    }

    record Typed<T>(Class<T> type, PayloadHandler<T> handler) implements Target {
        @Override
        public void handle(DeliveryContext context, PayloadCodec codec) throws Exception {
            T payload = codec.decode(context.rawBody(), type, context.properties().getContentType());
            handler.handle(payload, context);
        }
    }

    /** Collects one handler per routing key of the service. */
    public static final class Builder {
        private final Service service;
        private final Map<Route, Target> targets = new LinkedHashMap<>();

        private Builder(Service service) {
            this.service = service;
        }

        /** Handles the messages of {@code bindingKey}, one of the service's routing keys, as they arrived. */
        public Builder on(String bindingKey, MessageHandler handler) {
            requireNonNull(handler, "handler");
            Route route = route(bindingKey);
            route.payloadType().ifPresent(type -> {
                throw new IllegalArgumentException("routing key " + bindingKey + " of service " + service.name()
                        + " has payload " + type + " in the spec; register a handler for that type");
            });
            return put(route, new Raw(handler));
        }

        /** Handles the messages of {@code bindingKey}, one of the service's routing keys, decoded into {@code type}. */
        public <T> Builder on(String bindingKey, Class<T> type, PayloadHandler<T> handler) {
            requireNonNull(type, "type");
            requireNonNull(handler, "handler");
            Route route = route(bindingKey);
            route.payloadType().filter(declared -> !declared.equals(type.getName())).ifPresent(declared -> {
                throw new IllegalArgumentException("routing key " + bindingKey + " of service " + service.name()
                        + " has payload " + declared + " in the spec, not " + type.getName());
            });
            return put(route, new Typed<>(type, handler));
        }

        /** Returns the routes, once every routing key of the service has its handler. */
        public Routes build() {
            List<String> missing = new ArrayList<>();
            for (Route route : service.routes()) {
                if (!targets.containsKey(route)) {
                    missing.add(route.key().value());
                }
            }
            if (!missing.isEmpty()) {
                throw new IllegalStateException("service " + service.name() + " has no handler for "
                        + String.join(", ", missing));
            }
            return new Routes(service, Map.copyOf(targets));
        }

        private Route route(String bindingKey) {
            return service.route(bindingKey).orElseThrow(() -> new IllegalArgumentException("service "
                    + service.name() + " has no routing key " + bindingKey + "; its keys are "
                    + service.routes().stream().map(route -> route.key().value()).collect(Collectors.joining(", "))));
        }

        private Builder put(Route route, Target target) {
            if (targets.putIfAbsent(route, target) != null) {
                throw new IllegalArgumentException("routing key " + route.key() + " already has a handler");
            }
            return this;
        }
    }
}
