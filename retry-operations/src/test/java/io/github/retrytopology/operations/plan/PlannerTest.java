package io.github.retrytopology.operations.plan;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.operations.broker.QueueStatistics;
import io.github.retrytopology.operations.broker.VhostDefinitions;
import io.github.retrytopology.operations.plan.PlanEntry.Action;
import io.github.retrytopology.operations.plan.PlanEntry.Kind;
import io.github.retrytopology.runtime.testing.TestManagement;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The planner's own decisions, on broker states written as the management API would answer; what the broker
 * does with them is {@code PlanApplyIT}'s.
 */
class PlannerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper READER = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private static final URI BROKER = URI.create("http://rabbit:15672/");

    private static RetrySpec spec(String queueType) {
        return Specs.parse("""
                version: 1
                package: com.acme
                exchange: shop.events
                defaults:
                  maxAttempts: 2
                  delays: [1s]
                  queueType: %s
                services:
                  orders:
                    routingKeys: [order.created]
                """.formatted(queueType).getBytes(StandardCharsets.UTF_8), "retry.yml");
    }

    /** The definitions and statistics of a broker that holds exactly the spec. */
    private static ObjectNode[] holding(RetrySpec spec) throws IOException {
        ObjectNode definitions = JSON.valueToTree(TestManagement.definitions(Topology.of(spec)));
        ObjectNode statistics = JSON.createObjectNode();
        ArrayNode queues = statistics.putArray("queues");
        for (JsonNode queue : definitions.path("queues")) {
            queues.addObject().put("name", queue.path("name").asText())
                    .put("type", queue.path("arguments").path("x-queue-type").asText())
                    .put("messages", 0).put("consumers", 0);
        }
        return new ObjectNode[] {definitions, statistics};
    }

    /** Adds an object to the broker's definitions, as a person or another tool would have. */
    private static void add(ObjectNode[] broker, String kind, Map<String, Object> object) {
        ((ArrayNode) broker[0].path(kind)).add(JSON.valueToTree(object));
    }

    /** Definitions as the management API's client reads them, with its mapping: unknown fields are left out. */
    private static VhostDefinitions definitions(JsonNode definitions) {
        return READER.convertValue(definitions, VhostDefinitions.class);
    }

    private static List<QueueStatistics> statistics(JsonNode statistics) {
        return List.of(READER.convertValue(statistics, QueueStatistics[].class));
    }

    private static Plan plan(RetrySpec spec, ObjectNode[] broker, int nodes) {
        return Planner.plan(spec, BrokerState.of(definitions(broker[0]), statistics(broker[1].path("queues")), nodes), BROKER);
    }

    @Test
    void aBrokerThatHoldsTheSpecIsInSync() throws IOException {
        RetrySpec spec = spec("quorum");

        Plan plan = plan(spec, holding(spec), 1);

        assertThat(plan.inSync()).isTrue();
        assertThat(plan.warnings()).isEmpty();
        assertThat(plan.entries()).hasSize(8);
    }

    @Test
    void warnsAboutClassicQueuesOnAClusterOfSeveralNodes() throws IOException {
        RetrySpec spec = spec("classic");

        Plan single = plan(spec, holding(spec), 1);
        Plan cluster = plan(spec, holding(spec), 3);

        assertThat(single.warnings()).isEmpty();
        assertThat(cluster.inSync()).isTrue();
        assertThat(cluster.warnings()).containsExactly("the cluster has 3 nodes, and the classic queues of orders each "
                + "live on one of them: they are unavailable while that node is down; quorum queues are replicated");
    }

    @Test
    void warnsAboutQueuesThatAreDownOrShortOfMembers() throws IOException {
        RetrySpec classic = spec("classic");
        ObjectNode[] down = holding(classic);
        queueStatistics(down, "orders").put("state", "down");
        RetrySpec quorum = spec("quorum");
        ObjectNode[] degraded = holding(quorum);
        members(queueStatistics(degraded, "orders"), "running", List.of("a", "b", "c"), List.of("a", "c"));
        members(queueStatistics(degraded, "orders.retry.1"), "running", List.of("a", "b", "c"), List.of("c"));
        members(queueStatistics(degraded, "orders.parking-lot"), "running", List.of("a", "b", "c"),
                List.of("a", "b", "c"));

        assertThat(plan(classic, down, 1).warnings()).containsExactly("queue orders is down: a classic queue is "
                + "unavailable while the node that holds it is down");
        assertThat(plan(quorum, degraded, 3).warnings()).containsExactly(
                "queue orders has 2 of 3 members online (b down): it works, but the loss of 1 more node stops it",
                "queue orders.retry.1 has 1 of 3 members online (a, b down): no majority, so it takes and delivers "
                        + "nothing until one comes back");
    }

    @Test
    void aQueueThatKeepsItsDeadLetteredMessagesWhileTheirTargetIsThereIsAConflict() throws IOException {
        RetrySpec spec = spec("quorum");
        ObjectNode[] broker = holding(spec);
        queueStatistics(broker, "orders.retry.1").put("messages_dlx", 32);
        BrokerState first = BrokerState.of(definitions(broker[0]), statistics(broker[1].path("queues")), 3);

        Plan stuck = Planner.plan(spec, first.withDeadLetteredLater(statistics(JSON.readTree("""
                [{"name": "orders.retry.1", "messages_dlx": 971}]"""))), BROKER);
        Plan forwarding = Planner.plan(spec, first.withDeadLetteredLater(statistics(JSON.readTree("""
                [{"name": "orders.retry.1", "messages_dlx": 3}]"""))), BROKER);

        assertThat(first.notSeenForwarding()).extracting(BrokerState.Queue::name).containsExactly("orders.retry.1");
        PlanEntry entry = stuck.entry(Kind.QUEUE, "orders.retry.1");
        assertThat(entry.action()).isEqualTo(Action.CONFLICT);
        assertThat(entry.reason()).startsWith("it holds 971 dead-lettered messages that it is not forwarding to queue "
                + "'orders', which is there (32 at the first reading): before RabbitMQ 3.12.5");
        assertThat(forwarding.inSync()).isTrue();
        assertThat(forwarding.warnings()).isEmpty();
    }

    @Test
    void aCountNotYetFallenIsReadAgainAndOneThatFellIsNot() throws IOException {
        RetrySpec spec = spec("quorum");
        ObjectNode[] broker = holding(spec);
        queueStatistics(broker, "orders.retry.1").put("messages_dlx", 32);
        BrokerState first = BrokerState.of(definitions(broker[0]), statistics(broker[1].path("queues")), 3);

        // Statistics the broker was late to refresh read the same; the reading after them tells.
        BrokerState stale = first.withDeadLetteredLater(statistics(JSON.readTree("""
                [{"name": "orders.retry.1", "messages_dlx": 32}]""")));
        BrokerState fallen = stale.withDeadLetteredLater(statistics(JSON.readTree("""
                [{"name": "orders.retry.1", "messages_dlx": 0}]""")));

        assertThat(stale.notSeenForwarding()).extracting(BrokerState.Queue::name).containsExactly("orders.retry.1");
        assertThat(fallen.notSeenForwarding()).isEmpty();
        assertThat(Planner.plan(spec, fallen, BROKER).inSync()).isTrue();
    }

    private static ObjectNode queueStatistics(ObjectNode[] broker, String name) {
        for (JsonNode queue : broker[1].path("queues")) {
            if (queue.path("name").asText().equals(name)) {
                return (ObjectNode) queue;
            }
        }
        throw new IllegalArgumentException(name);
    }

    private static void members(ObjectNode queue, String state, List<String> members, List<String> online) {
        queue.put("state", state);
        members.forEach(queue.putArray("members")::add);
        online.forEach(queue.putArray("online")::add);
    }

    @Test
    void namesTheQueueResourcesTheOperatorsWebhookRefusesWhenAQueueMustBeRecreated() throws IOException {
        RetrySpec spec = spec("quorum");
        ObjectNode[] broker = holding(spec("classic"));

        Plan plan = plan(spec, broker, 1);

        assertThat(plan.entry(Kind.QUEUE, "orders").action()).isEqualTo(Action.RECREATE);
        assertThat(plan.warnings()).containsExactly("where the messaging-topology-operator declares the queues to "
                + "recreate, its admission webhook refuses the regenerated Queue resources orders, orders.retry.1, "
                + "orders.parking-lot "
                + "(after the build's name prefix), as it refuses any change of a queue's type or arguments: give the "
                + "queue a new name, or set deletionPolicy: retain, delete the resource, run apply --migrate and apply "
                + "the resource again (docs/kubernetes.md)");
    }

    @Test
    void aPolicyForAnotherQueueTypeOrOfAPatternJavaCannotReadDoesNotConflict() throws IOException {
        RetrySpec spec = spec("classic");
        ObjectNode[] broker = holding(spec);
        add(broker, "policies", Map.of("name", "quorum-only", "pattern", ".*", "apply-to", "quorum_queues",
                "priority", 500, "definition", Map.of("message-ttl", 1)));
        add(broker, "policies", Map.of("name", "odd", "pattern", "(?<", "apply-to", "queues", "priority", 500,
                "definition", Map.of("message-ttl", 1)));

        Plan plan = plan(spec, broker, 1);

        assertThat(plan.inSync()).isTrue();
        assertThat(plan.warnings()).containsExactly("policy 'odd' has a pattern Java cannot read, '(?<': the plan assumes "
                + "it applies to none of our queues");
    }

    @Test
    void aPolicyOfOurPriorityIsAConflictForRabbitMqMayApplyEither() throws IOException {
        RetrySpec spec = spec("quorum");
        ObjectNode[] broker = holding(spec);
        add(broker, "policies", Map.of("name", "tie", "pattern", "^orders$", "apply-to", "all", "priority", 100,
                "definition", Map.of("max-length", 5)));

        PlanEntry entry = plan(spec, broker, 1).entry(Kind.QUEUE, "orders");

        assertThat(entry.action()).isEqualTo(Action.CONFLICT);
        assertThat(entry.reason()).isEqualTo("policy 'tie' (pattern '^orders$') has our priority 100, so RabbitMQ may "
                + "apply either");
    }

    private static RetrySpec keeping(String queue, String queueSettings) {
        return Specs.parse("""
                version: 1
                package: com.acme
                exchange: shop.events
                queueSettings: %s
                defaults:
                  maxAttempts: 2
                  delays: [1s]
                services:
                  ucenter-user:
                    %s
                    routingKeys: [user.created]
                """.formatted(queueSettings, queue == null ? "" : "queue: " + queue).getBytes(StandardCharsets.UTF_8),
                "retry.yml");
    }

    @Test
    void aBrokerThatHoldsAKeptQueueIsInSyncAndTheQueueIsItsServices() throws IOException {
        RetrySpec spec = keeping("ucenter@user", "policies");

        Plan plan = plan(spec, holding(spec), 1);

        assertThat(plan.inSync()).isTrue();
        assertThat(plan.entries()).extracting(entry -> entry.service().orElse("-") + " " + entry.object())
                .containsExactly("- exchange shop.events", "ucenter-user queue ucenter@user",
                        "ucenter-user policy ucenter-user", "ucenter-user queue ucenter-user.retry.1",
                        "ucenter-user policy ucenter-user.retry.1", "ucenter-user queue ucenter-user.parking-lot",
                        "ucenter-user policy ucenter-user.parking-lot",
                        "ucenter-user binding user.created -> ucenter@user");
    }

    @Test
    void aQueueNamedAfterTheServiceBeforeItKeptAnotherIsAnOrphanWhosePolicyMovesToTheKeptQueue() throws IOException {
        RetrySpec before = keeping(null, "policies");
        RetrySpec kept = keeping("ucenter@user", "policies");

        Plan plan = plan(kept, holding(before), 1);

        assertThat(plan.drift()).extracting(entry -> entry.action() + " " + entry.object()).containsExactly(
                "CREATE queue ucenter@user",
                "UPDATE policy ucenter-user",
                "UPDATE policy ucenter-user.retry.1",
                "ORPHAN queue ucenter-user",
                "CREATE binding user.created -> ucenter@user",
                "ORPHAN binding user.created -> ucenter-user");
        assertThat(plan.entry(Kind.POLICY, "ucenter-user").reason())
                .isEqualTo("pattern is \"^ucenter\\\\-user$\" on the broker, \"^ucenter\\\\@user$\" in the spec");
        assertThat(plan.entry(Kind.POLICY, "ucenter-user.retry.1").reason()).isEqualTo("definition.dead-letter-routing-key "
                + "is \"ucenter-user\" on the broker, \"ucenter@user\" in the spec");
        assertThat(plan.entry(Kind.QUEUE, "ucenter-user").reason()).isEqualTo("the queue named after service "
                + "'ucenter-user', which consumes ucenter@user in the spec; it holds 0 messages");
        assertThat(plan.drift().get(5).reason()).isEqualTo("binds ucenter-user, which service 'ucenter-user' consumed "
                + "before: it consumes ucenter@user in the spec");
    }

    @Test
    void theTemporaryQueueOfAKeptQueuesMigrationIsItsServices() throws IOException {
        RetrySpec spec = keeping("ucenter@user", "policies");
        ObjectNode[] broker = holding(spec);
        add(broker, "queues", Map.of("name", "ucenter@user.migrating", "durable", true, "auto_delete", false,
                "arguments", Map.of("x-queue-type", "classic")));
        ((ArrayNode) broker[1].path("queues")).addObject().put("name", "ucenter@user.migrating").put("type", "classic")
                .put("messages", 3).put("consumers", 0);

        Plan plan = plan(spec, broker, 1);

        assertThat(plan.drift()).singleElement().satisfies(entry -> {
            assertThat(entry.service()).hasValue("ucenter-user");
            assertThat(entry.object()).isEqualTo("queue ucenter@user.migrating");
            assertThat(entry.reason()).isEqualTo("the temporary queue of an interrupted migration of ucenter@user; "
                    + "apply --migrate moves its messages back; it holds 3 messages");
        });
    }

    @Test
    void aKeptQueuesPolicyLeftWhenTheSpecTakesArgumentsIsAnOrphanOfThatQueue() throws IOException {
        RetrySpec policies = keeping("ucenter@user", "policies");
        RetrySpec arguments = keeping("ucenter@user", "arguments");

        Plan plan = plan(arguments, holding(policies), 1);

        assertThat(plan.entry(Kind.POLICY, "ucenter-user").action()).isEqualTo(Action.ORPHAN);
        assertThat(plan.entry(Kind.POLICY, "ucenter-user").reason()).isEqualTo("the spec keeps the settings of "
                + "ucenter@user in queue arguments, not in a policy");
        assertThat(plan.entry(Kind.QUEUE, "ucenter@user").action()).isEqualTo(Action.RECREATE);
    }

    @Test
    void queuesOfAnotherSpecInTheSameVhostAreNotOurs() throws IOException {
        RetrySpec spec = spec("quorum");
        ObjectNode[] broker = holding(spec);
        for (String queue : new String[] {"billing", "billing.parking-lot", "left-over.parking-lot"}) {
            add(broker, "queues", Map.of("name", queue, "durable", true, "auto_delete", false, "arguments", Map.of()));
        }
        add(broker, "bindings", Map.of("source", "other.events", "destination", "billing", "destination_type", "queue",
                "routing_key", "invoice.sent", "arguments", Map.of()));

        Plan plan = plan(spec, broker, 1);

        assertThat(plan.drift()).extracting(PlanEntry::object).containsExactly("queue left-over.parking-lot");
        assertThat(plan.drift().get(0).reason()).startsWith("the parking lot of service 'left-over', which the spec no "
                + "longer has");
    }
}
