package io.github.retrytopology.model.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class KubernetesNamesTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "cdn-purge                | cdn-purge",
            "cdn-purge.retry.1        | cdn-purge.retry.1",
            "cdn-purge.parking-lot    | cdn-purge.parking-lot",
            "Billing                  | billing",
            "ucenter@user             | ucenter-user",
            "orders_worker..v2        | orders-worker.v2",
            "-edge-.-case-            | edge.case",
            "straße                   | stra-e",
    })
    void keepsAValidBrokerNameAndCleansAnyOther(String broker, String resource) {
        assertThat(KubernetesNames.of(broker)).isEqualTo(resource);
        assertThat(KubernetesNames.isName(resource)).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/", "@@@", "Очередь"})
    void namesABrokerNameWithNothingLeftByItsHash(String broker) {
        String name = KubernetesNames.of(broker);

        assertThat(name).matches("[0-9a-f]{8}");
        assertThat(KubernetesNames.isName(name)).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"a", "b."})
    void cutsALongNameAndEndsItWithItsHash(String ending) {
        String broker = "q".repeat(250) + ending;

        String name = KubernetesNames.of(broker);

        assertThat(name).hasSizeLessThanOrEqualTo(KubernetesNames.MAX_LENGTH).matches("q+-[0-9a-f]{8}");
        assertThat(name).isNotEqualTo(KubernetesNames.of("q".repeat(250) + "c"));
        assertThat(KubernetesNames.isName("p".repeat(KubernetesNames.MAX_PREFIX_LENGTH) + name)).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "order.*.failed   | ticketing.order.star.failed",
            "order.#          | ticketing.order.hash",
            "#                | ticketing.hash",
            "order.placed     | ticketing.order.placed",
    })
    void namesABindingAfterItsQueueAndItsKeyWithWildcardsAsWords(String key, String resource) {
        assertThat(KubernetesNames.binding(new Binding("orders.events", "ticketing", key))).isEqualTo(resource);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"a", "a.b", "a-b.c-d", "0.1"})
    void takesDns1123Subdomains(String name) {
        assertThat(KubernetesNames.isName(name)).isTrue();
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"", "A", "a_b", "a..b", "-a", "a-", "a.-b", "a/b"})
    void refusesWhatIsNoDns1123Subdomain(String name) {
        assertThat(KubernetesNames.isName(name)).isFalse();
    }

    @Test
    void namesEveryObjectOfATopologyByItsBrokerName() {
        Queue queue = new Queue("Orders", Map.of());
        Policy policy = new Policy("orders", "^Orders$", Policy.QUEUES, 100, Map.of());
        Exchange exchange = new Exchange("Acme.Events", "topic", true);

        assertThat(KubernetesNames.queue(queue)).isEqualTo("orders");
        assertThat(KubernetesNames.policy(policy)).isEqualTo("orders");
        assertThat(KubernetesNames.exchange(exchange)).isEqualTo("acme.events");
    }
}
