package io.github.retrytopology.model.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.retrytopology.model.QueueType;
import io.github.retrytopology.model.Route;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.decision.Backoff;
import io.github.retrytopology.model.decision.RetryPolicy;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RouteIndexTest {

    /** Routes as a service built in code may have them: an exact key that an earlier wildcard key takes. */
    private static final Service SERVICE = new Service("orders", List.of(
            Route.of("order.created"),
            Route.of("order.*.paid", "paid"),
            Route.of("order.42.paid", "fortyTwoPaid"),
            Route.of("audit.#", "audit"),
            Route.of("audit.login", "login")),
            new RetryPolicy(1, Backoff.none(), List.of()), QueueType.QUORUM);

    private static final RouteIndex<Route> INDEX = RouteIndex.of(SERVICE, route -> route);

    @ParameterizedTest(name = "routing key '{0}'")
    @ValueSource(strings = {"order.created", "order.7.paid", "order.42.paid", "audit", "audit.login", "audit.a.b",
            "order", "order.created.late", "nothing", "", "order..paid"})
    void findsTheFirstRouteInTheSpecsOrderWhoseKeyMatches(String routingKey) {
        assertThat(INDEX.find(routingKey)).isEqualTo(SERVICE.routes().stream()
                .filter(route -> route.key().matches(routingKey)).findFirst().orElse(null));
    }
}
