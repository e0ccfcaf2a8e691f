package io.github.retrytopology.model.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueueSettingTest {

    @Test
    void isOneSettingUnderTwoSpellings() {
        assertThat(QueueSetting.MESSAGE_TTL.name()).isEqualTo("message-ttl");
        assertThat(QueueSetting.MESSAGE_TTL.argument()).isEqualTo("x-message-ttl");
        assertThat(QueueSetting.MESSAGE_TTL.named("x-message-ttl")).isTrue();
        assertThat(QueueSetting.MESSAGE_TTL.named("message-ttl")).isTrue();
        assertThat(QueueSetting.MESSAGE_TTL.named("expires")).isFalse();
        assertThat(QueueArguments.policyKey(QueueSetting.DELIVERY_LIMIT.argument()))
                .isEqualTo(QueueSetting.DELIVERY_LIMIT.name());
    }

    @Test
    void readsOnlyAValueOfItsType() {
        Map<String, Object> definition = new LinkedHashMap<>();
        QueueSetting.DEAD_LETTER_ROUTING_KEY.put(definition, "orders.parking-lot");
        definition.put(QueueSetting.MESSAGE_TTL.name(), "ten seconds");

        assertThat(QueueSetting.DEAD_LETTER_ROUTING_KEY.in(definition)).contains("orders.parking-lot");
        assertThat(QueueSetting.MESSAGE_TTL.in(definition)).isEmpty();
        assertThat(QueueSetting.DELIVERY_LIMIT.in(definition)).isEmpty();
        assertThat(QueueSetting.QUEUE_TYPE.inArguments(Map.of(QueueArguments.QUEUE_TYPE, "quorum"))).contains("quorum");
    }

    @Test
    void onlyTheQueueTypeIsNoPolicyKey() {
        assertThat(QueueSetting.ALL).filteredOn(setting -> !setting.byPolicy())
                .containsExactly(QueueSetting.QUEUE_TYPE);
        assertThat(QueueSetting.ALL).containsAll(QueueSetting.MESSAGE_FATE);
    }

    @Test
    void refusesANameSpeltAsAnArgument() {
        assertThatThrownBy(() -> new QueueSetting<>("x-message-ttl", Number.class, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'x-message-ttl' is spelt as an argument");
    }
}
