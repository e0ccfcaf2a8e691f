package io.github.retrytopology.model.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    void refusesWhatIsNoVersion() {
        assertThatThrownBy(() -> BrokerVersion.parse("four")).hasMessageContaining("'four' is not a RabbitMQ version");
    }
}
