package io.github.retrytopology.operations.adopt;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.retrytopology.operations.adopt.Layout.QueueView;
import io.github.retrytopology.operations.adopt.Layout.Setting;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A queue's settings as the broker applies them, from its arguments, its policy and its operator policy. */
class LayoutTest {

    /** A per-virtual-host export, as RabbitMQ 3.10 writes one: only its parameters name the virtual host. */
    private static final String EXPORT = """
            {
              "rabbit_version": "3.10.8",
              "parameters": [
                {"value": {"pattern": "^capped", "definition": {"message-ttl": 1000, "delivery-limit": 9},
                           "priority": 0, "apply-to": "queues"},
                 "vhost": "shop", "component": "operator_policy", "name": "ceiling"}
              ],
              "policies": [
                {"name": "low", "pattern": ".*", "apply-to": "queues", "priority": 1,
                 "definition": {"message-ttl": 5000, "dead-letter-exchange": "low"}},
                {"name": "high", "pattern": "^(argued|capped)", "apply-to": "queues", "priority": 9,
                 "definition": {"message-ttl": 30000, "dead-letter-exchange": "high", "delivery-limit": 3}},
                {"name": "quorum-only", "pattern": "^argued", "apply-to": "quorum_queues", "priority": 99,
                 "definition": {"message-ttl": 1}}
              ],
              "queues": [
                {"name": "argued", "durable": true, "auto_delete": false,
                 "arguments": {"x-message-ttl": 60000, "x-dead-letter-exchange": "own"}},
                {"name": "capped", "durable": true, "auto_delete": false, "arguments": {"x-queue-type": "quorum"}},
                {"name": "plain", "durable": true, "auto_delete": false, "arguments": {}}
              ],
              "exchanges": [],
              "bindings": []
            }
            """;

    private final Definitions definitions = read();
    private final Layout layout = Layout.of(definitions);

    @Test
    void aPerVirtualHostExportIsOfTheVirtualHostItsParametersName() {
        assertThat(definitions.vhost()).isEqualTo("shop");
        assertThat(definitions.vhostNamed()).isTrue();
        assertThat(definitions.brokerVersion()).hasValue("3.10.8");
    }

    @Test
    void theHighestPriorityPolicyThatMatchesAndTargetsTheQueueApplies() {
        assertThat(queue("argued").policy()).hasValueSatisfying(policy -> assertThat(policy.name()).isEqualTo("high"));
        assertThat(queue("plain").policy()).hasValueSatisfying(policy -> assertThat(policy.name()).isEqualTo("low"));
        assertThat(queue("capped").operatorPolicy())
                .hasValueSatisfying(policy -> assertThat(policy.name()).isEqualTo("ceiling"));
    }

    @Test
    void anArgumentWinsForDeadLetteringAndTheLowestWinsForTtlAndDeliveryLimit() {
        QueueView argued = queue("argued");
        assertThat(argued.deadLetterExchange()).hasValue(new Setting<>("own", "argument x-dead-letter-exchange"));
        assertThat(argued.messageTtl()).hasValue(new Setting<>(30000L, "policy 'high'"));
        QueueView capped = queue("capped");
        assertThat(capped.deadLetterExchange()).hasValue(new Setting<>("high", "policy 'high'"));
        assertThat(capped.messageTtl()).hasValue(new Setting<>(1000L, "operator policy 'ceiling'"));
        assertThat(capped.deliveryLimit()).hasValue(new Setting<>(3L, "policy 'high'"));
        assertThat(queue("plain").deliveryLimit()).isEmpty();
    }

    private QueueView queue(String name) {
        return layout.queue(name).orElseThrow();
    }

    private static Definitions read() {
        try {
            return Definitions.parse(EXPORT.getBytes(StandardCharsets.UTF_8), "shop.json", Optional.empty());
        } catch (DefinitionsException e) {
            throw new IllegalStateException(e);
        }
    }
}
