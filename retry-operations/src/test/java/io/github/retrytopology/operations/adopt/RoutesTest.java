package io.github.retrytopology.operations.adopt;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Routing as the broker routes, by exchange type and binding key, through exchanges and alternates. */
class RoutesTest {

    private static final String DEFINITIONS = """
            {
              "queues": [
                {"name": "audit", "arguments": {}},
                {"name": "orders", "arguments": {}},
                {"name": "unrouted", "arguments": {}},
                {"name": "hashed-a", "arguments": {}}
              ],
              "exchanges": [
                {"name": "events", "type": "topic", "arguments": {"alternate-exchange": "leftovers"}},
                {"name": "orders-in", "type": "direct", "arguments": {}},
                {"name": "leftovers", "type": "fanout", "arguments": {}},
                {"name": "by-header", "type": "headers", "arguments": {}},
                {"name": "hash", "type": "x-consistent-hash", "arguments": {}},
                {"name": "later", "type": "x-delayed-message", "arguments": {"x-delayed-type": "direct"}}
              ],
              "bindings": [
                {"source": "events", "destination": "orders-in", "destination_type": "exchange", "routing_key": "order.#", "arguments": {}},
                {"source": "orders-in", "destination": "orders", "destination_type": "queue", "routing_key": "order.created", "arguments": {}},
                {"source": "events", "destination": "audit", "destination_type": "queue", "routing_key": "#.audited", "arguments": {}},
                {"source": "leftovers", "destination": "unrouted", "destination_type": "queue", "routing_key": "", "arguments": {}},
                {"source": "by-header", "destination": "audit", "destination_type": "queue", "routing_key": "", "arguments": {"x-match": "all", "kind": "audit"}},
                {"source": "hash", "destination": "hashed-a", "destination_type": "queue", "routing_key": "1", "arguments": {}},
                {"source": "later", "destination": "orders", "destination_type": "queue", "routing_key": "order.created", "arguments": {}}
              ]
            }
            """;

    private final Routes routes = new Routes(Layout.of(definitions()));

    @Test
    void followsExchangeToExchangeBindingsByEachExchangesType() {
        assertThat(routes.route("events", Set.of(KeyPattern.literal("order.created"))).queues()).containsExactly("orders");
        assertThat(routes.route("events", Set.of(KeyPattern.literal("order.deleted"))).queues()).isEmpty();
        // A message known only as "some key that order.* matches" may be order.audited too.
        assertThat(routes.route("events", Set.of(KeyPattern.topic("order.*"))).queues())
                .containsExactlyInAnyOrder("audit", "orders");
    }

    @Test
    void whatNoBindingTakesGoesToTheAlternateExchange() {
        assertThat(routes.route("events", Set.of(KeyPattern.literal("invoice.paid"))).queues())
                .containsExactly("unrouted");
    }

    @Test
    void aDelayedMessageExchangeRoutesByItsDelayedType() {
        assertThat(routes.route("later", Set.of(KeyPattern.literal("order.created"))).single()).hasValue("orders");
        assertThat(routes.route("later", Set.of(KeyPattern.literal("order.deleted"))).queues()).isEmpty();
    }

    @Test
    void theDefaultExchangeDeliversToTheQueueItsKeyNamesAndDoubtsAKeyItDoesNotKnow() {
        assertThat(routes.route("", Set.of(KeyPattern.literal("audit"))).single()).hasValue("audit");
        Routes.Reach own = routes.route("", Set.of(KeyPattern.topic("order.*")));
        assertThat(own.single()).isEmpty();
        assertThat(own.doubts()).singleElement().asString().contains("would deliver to any queue that key names");
    }

    @Test
    void exchangesThatRouteByWhatTheBrokerDoesNotHoldAreDoubted() {
        assertThat(routes.route("by-header", Set.of(KeyPattern.ANY)).doubts()).singleElement().asString()
                .contains("is a headers exchange");
        assertThat(routes.route("hash", Set.of(KeyPattern.ANY)).doubts()).singleElement().asString()
                .contains("is of type x-consistent-hash");
        assertThat(routes.route("nowhere", Set.of(KeyPattern.ANY)).doubts()).singleElement().asString()
                .isEqualTo("exchange 'nowhere' does not exist, and the broker drops what is sent there");
    }

    private static Definitions definitions() {
        try {
            return Definitions.parse(DEFINITIONS.getBytes(StandardCharsets.UTF_8), "routes.json", Optional.empty());
        } catch (DefinitionsException e) {
            throw new IllegalStateException(e);
        }
    }
}
