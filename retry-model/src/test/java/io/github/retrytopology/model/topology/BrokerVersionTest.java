package io.github.retrytopology.model.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.load.Specs;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class BrokerVersionTest {

    @Test
    void readsTheVersionsBrokersReport() {
        assertThat(BrokerVersion.parse("4.3.6")).isEqualTo(new BrokerVersion(4, 3, 6));
        assertThat(BrokerVersion.parse("3.10.8")).isEqualTo(new BrokerVersion(3, 10, 8));
        assertThat(BrokerVersion.parse("4.0")).isEqualTo(new BrokerVersion(4, 0, 0));
        assertThat(BrokerVersion.parse("4.3.1+2.g1234")).isEqualTo(new BrokerVersion(4, 3, 1));
    }

    @Test
    void ordersByNumberNotByText() {
        assertThat(BrokerVersion.parse("3.10.8").atLeast(BrokerVersion.parse("3.9.29"))).isTrue();
        assertThat(BrokerVersion.parse("4.3.0").atLeast(BrokerVersion.DELAYED_RETRY)).isFalse();
        assertThat(BrokerVersion.parse("4.3.1").atLeast(BrokerVersion.DELAYED_RETRY)).isTrue();
        assertThat(BrokerVersion.parse("4.10.0").atLeast(BrokerVersion.DELAYED_RETRY)).isTrue();
        assertThat(BrokerVersion.parse("4.3.1-rc.1").atLeast(BrokerVersion.DELAYED_RETRY)).isFalse();
    }

    @Test
    void knowsWhichBrokersRunAService() {
        RetrySpec spec = Specs.parse(String.join("\n",
                "version: 1",
                "package: com.acme.retry",
                "exchange: events",
                "defaults: {maxAttempts: 3, delays: [1s, 2s]}",
                "services:",
                "  tiers: {routingKeys: [a.b]}",
                "  broker: {routingKeys: [a.c], delayBy: broker}").getBytes(StandardCharsets.UTF_8), "retry.yml");
        BrokerVersion old = BrokerVersion.parse("4.0.5");

        assertThat(old.runs(List.of(spec.service("tiers")))).isTrue();
        assertThat(old.runs(List.of(spec.service("broker")))).isFalse();
        assertThat(old.runs(spec.services())).isFalse();
        assertThat(BrokerVersion.DELAYED_RETRY.runs(spec.services())).isTrue();
        assertThat(BrokerVersion.requiredBy(spec.services())).contains(BrokerVersion.DELAYED_RETRY);
    }

    @Test
    void refusesWhatIsNoVersion() {
        assertThatThrownBy(() -> BrokerVersion.parse("four")).hasMessageContaining("'four' is not a RabbitMQ version");
    }
}
