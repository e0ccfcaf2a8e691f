package io.github.retrytopology.operations.plan;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.github.retrytopology.model.Names;
import io.github.retrytopology.operations.plan.BrokerState.Policy;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PolicyIndexTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cdn-purge", "cdn-purge.retry.12", "cdn-purge.parking-lot", "café.retry.1"})
    void readsTheOneNameOfAnExactPattern(String name) {
        assertThat(PolicyIndex.literal(Names.exactPattern(name))).hasValue(name);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {".*", "^orders", "orders$", "^orders\\.retry\\.\\d$", "^a.b$", "^a|b$", "^(a)$", "^a\\$"})
    void findsNoOneNameInAnyOtherPattern(String pattern) {
        assertThat(PolicyIndex.literal(pattern)).isEmpty();
    }

    @Test
    void findsThePoliciesThatApplyHighestPriorityFirst() {
        PolicyIndex index = new PolicyIndex(List.of(policy("ours", Names.exactPattern("orders.retry.1"), "queues", 100),
                policy("catch-all", ".*", "all", 0), policy("tiers", "\\.retry\\.", "quorum_queues", 200),
                policy("exchanges", ".*", "exchanges", 300), policy("broken", "(", "queues", 1)));

        assertThat(index.matching("orders.retry.1", "quorum")).extracting(Policy::name)
                .containsExactly("tiers", "ours", "catch-all");
        assertThat(index.matching("orders.retry.1", "classic")).extracting(Policy::name).containsExactly("ours", "catch-all");
        assertThat(index.matching("orders", "quorum")).extracting(Policy::name).containsExactly("catch-all");
        assertThat(index.unreadable()).extracting(Policy::name).containsExactly("broken");
    }

    private static Policy policy(String name, String pattern, String applyTo, int priority) {
        return new Policy(name, pattern, applyTo, priority, JsonNodeFactory.instance.objectNode(), false);
    }
}
