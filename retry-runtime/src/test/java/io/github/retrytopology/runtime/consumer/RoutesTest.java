package io.github.retrytopology.runtime.consumer;

import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.AMQP;
import io.github.retrytopology.model.QueueType;
import io.github.retrytopology.model.Route;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.decision.Backoff;
import io.github.retrytopology.model.decision.RetryPolicy;
import io.github.retrytopology.runtime.codec.PayloadCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Dispatch by original routing key, in the spec's order, with topic semantics. */
class RoutesTest {

    private static final Service ORDERS = new Service("orders", List.of(
            Route.of("order.created"),
            Route.of("order.*", "anyOrder"),
            new Route(io.github.retrytopology.model.BindingKey.of("payment.#"), "payment", Optional.of("java.lang.String"))),
            new RetryPolicy(3, Backoff.delays(ofSeconds(1)), List.of()), QueueType.QUORUM);

    private final List<String> handled = new ArrayList<>();

    private final Routes routes = Routes.builder(ORDERS)
            .on("order.created", context -> handled.add("created " + context.routingKey()))
            .on("order.*", context -> handled.add("any " + context.routingKey()))
            .on("payment.#", String.class, (text, context) -> handled.add("payment " + text))
            .build();

    @ParameterizedTest(name = "{0} goes to {1}")
    @CsvSource({"order.created, created order.created", "order.paid, any order.paid", "order., any order.",
        "payment, payment body", "payment.card.declined, payment body"})
    void dispatchesToTheFirstMatchingKeyInSpecOrder(String routingKey, String expected) throws Exception {
        routes.dispatch(routingKey).handle(context(routingKey), PayloadCodec.builtIn());

        assertThat(handled).containsExactly(expected);
    }

    @ParameterizedTest(name = "''{0}''")
    @CsvSource({"order", "order.a.b", "orders", "''"})
    void findsNoRouteForKeysNoBindingMatches(String routingKey) {
        assertThat(routes.dispatch(routingKey)).isNull();
    }

    @Test
    void requiresAHandlerForEveryKeyOfTheService() {
        assertThatThrownBy(() -> Routes.builder(ORDERS).on("order.created", context -> { }).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("service orders has no handler for order.*, payment.#");
    }

    @Test
    void refusesAKeyTheServiceDoesNotHave() {
        assertThatThrownBy(() -> Routes.builder(ORDERS).on("order.deleted", context -> { }))
                .hasMessage("service orders has no routing key order.deleted; its keys are order.created, order.*, payment.#");
    }

    @Test
    void refusesAPayloadTypeOtherThanTheSpecs() {
        assertThatThrownBy(() -> Routes.builder(ORDERS).on("payment.#", Integer.class, (number, context) -> { }))
                .hasMessageContaining("has payload java.lang.String in the spec, not java.lang.Integer");
        assertThatThrownBy(() -> Routes.builder(ORDERS).on("payment.#", context -> { }))
                .hasMessageContaining("has payload java.lang.String in the spec");
    }

    @Test
    void refusesTwoHandlersForOneKey() {
        assertThatThrownBy(() -> Routes.builder(ORDERS).on("order.*", context -> { }).on("order.*", context -> { }))
                .hasMessage("routing key order.* already has a handler");
    }

    @Test
    void checksAtStartUpThatTheCodecDecodesEveryPayload() {
        PayloadCodec bytesOnly = new PayloadCodec() {
            @Override
            public boolean canDecode(Class<?> type) {
                return type == byte[].class;
            }

            @Override
            public <T> T decode(byte[] body, Class<T> type, @Nullable String contentType) {
                return type.cast(body);
            }
        };

        assertThatThrownBy(() -> routes.requireDecodable(bytesOnly))
                .hasMessageStartingWith("the codec cannot decode the payloads of payment.# (java.lang.String)");
    }

    private static DeliveryContext context(String routingKey) {
        return new DeliveryContext(ORDERS, "events", routingKey, null, 1, java.util.Optional::empty,
                new AMQP.BasicProperties(), java.util.Map.of(), null, "body".getBytes(StandardCharsets.UTF_8));
    }
}
