package io.github.retrytopology.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.retrytopology.model.Names.QueueName;
import io.github.retrytopology.model.Names.QueueRole;
import io.github.retrytopology.model.load.Specs;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** A spec's names read with the spec: its kept queues are its services' queues, which no shape tells. */
class QueueNamesTest {

    private static final RetrySpec SPEC = Specs.parse(("version: 1\npackage: com.acme.retry\nexchange: acme.events\n"
            + "defaults: {maxAttempts: 3, delays: [10s]}\nservices:\n"
            + "  ucenter-user: {queue: ucenter@user, routingKeys: [user.created]}\n"
            + "  orders-worker: {queue: orders-in, routingKeys: [order.created]}\n"
            + "  billing: {routingKeys: [order.paid]}\n").getBytes(StandardCharsets.UTF_8), "retry.yml");
    private static final QueueNames NAMES = SPEC.queueNames();

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "ucenter@user, ucenter-user, SERVICE, 0, false, ucenter@user",
        "ucenter@user.migrating, ucenter-user, SERVICE, 0, true, ucenter@user",
        "orders-in, orders-worker, SERVICE, 0, false, orders-in",
        "ucenter-user.retry.1, ucenter-user, TIER, 1, false, ucenter-user.retry.1",
        "ucenter-user.parking-lot.migrating, ucenter-user, PARKING_LOT, 0, true, ucenter-user.parking-lot",
        "billing, billing, SERVICE, 0, false, billing",
        "legacy.retry.2, legacy, TIER, 2, false, legacy.retry.2",
    })
    void readsKeptQueuesThroughTheSpecAndOthersByTheirShape(String name, String service, QueueRole role, int tier,
            boolean migration, String topologyQueue) {
        QueueName read = NAMES.queue(name).orElseThrow();

        assertThat(read).isEqualTo(new QueueName(name, service, role, tier, migration));
        assertThat(read.topologyQueue()).isEqualTo(topologyQueue);
    }

    @Test
    void theQueueNamedAfterAServiceThatKeepsAnotherIsStillItsByItsShapeButNotItsQueue() {
        QueueName before = NAMES.queue("ucenter-user").orElseThrow();

        assertThat(before).isEqualTo(new QueueName("ucenter-user", "ucenter-user", QueueRole.SERVICE, 0, false));
        assertThat(SPEC.service(before.service()).queue()).isEqualTo("ucenter@user");
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"ucenter@user.retry.1", "ucenter@user.parking-lot", "ucenter@profile", "orders.dlq",
        "ucenter@user.migrating.migrating", "amq.gen-123"})
    void readsNoOtherName(String name) {
        assertThat(NAMES.queue(name)).isEmpty();
    }

    @Test
    void thePolicyNamedAfterAServiceThatKeepsItsQueueConfiguresTheKeptQueue() {
        assertThat(NAMES.policy("ucenter-user")).hasValue(new QueueName("ucenter@user", "ucenter-user",
                QueueRole.SERVICE, 0, false));
        assertThat(NAMES.policy("ucenter-user.retry.1")).hasValue(new QueueName("ucenter-user.retry.1",
                "ucenter-user", QueueRole.TIER, 1, false));
        assertThat(NAMES.policy("billing")).hasValue(new QueueName("billing", "billing", QueueRole.SERVICE, 0, false));
        assertThat(NAMES.policy("ucenter@user")).as("no policy of ours has a kept queue's name").isEmpty();
        for (Service service : SPEC.services()) {
            assertThat(NAMES.policy(service.queuePolicy()).orElseThrow().name()).isEqualTo(service.queue());
            assertThat(NAMES.queue(service.queue()).orElseThrow().policy()).isEqualTo(service.queuePolicy());
        }
    }
}
