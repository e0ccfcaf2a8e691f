package io.github.retrytopology.runtime.consumer;

import com.rabbitmq.client.AMQP;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.load.Specs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** The service, handlers and messages of the tests against {@link FakeConnection}. */
final class FakeDeliveries {

    static final Service ORDERS = load().service("orders");

    private FakeDeliveries() {
    }

    /** Handlers that return for every route. */
    static Routes succeeding() {
        Routes.Builder routes = Routes.builder(ORDERS);
        ORDERS.routes().forEach(route -> routes.on(route.key().value(), context -> { }));
        return routes.build();
    }

    /** Handlers that throw for every route. */
    static Routes failing() {
        Routes.Builder routes = Routes.builder(ORDERS);
        ORDERS.routes().forEach(route -> routes.on(route.key().value(), context -> {
            throw new IllegalStateException("fails");
        }));
        return routes.build();
    }

    /** Handlers that throw for this body, and return for any other. */
    static Routes failingOn(String body) {
        Routes.Builder routes = Routes.builder(ORDERS);
        ORDERS.routes().forEach(route -> routes.on(route.key().value(), context -> {
            if (new String(context.body(), StandardCharsets.UTF_8).equals(body)) {
                throw new IllegalStateException("fails");
            }
        }));
        return routes.build();
    }

    static AMQP.BasicProperties properties() {
        return new AMQP.BasicProperties.Builder().contentType("text/plain").build();
    }

    static byte[] body() {
        return "body".getBytes(StandardCharsets.UTF_8);
    }

    private static RetrySpec load() {
        try {
            return Specs.load(Path.of("src/test/resources/specs/reliability.yml"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
