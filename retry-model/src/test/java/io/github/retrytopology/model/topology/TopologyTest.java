package io.github.retrytopology.model.topology;

import static java.time.Duration.ofMinutes;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.github.retrytopology.model.Names;
import io.github.retrytopology.model.Protocol;
import io.github.retrytopology.model.QueueSettings;
import io.github.retrytopology.model.QueueType;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Route;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.decision.Backoff;
import io.github.retrytopology.model.decision.DelayBackend;
import io.github.retrytopology.model.decision.RetryPolicy;
import io.github.retrytopology.model.load.Specs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The derived topology has the properties the field taught us, each checked on its own. */
class TopologyTest {

    private static final Service EMAIL = new Service("email", List.of(Route.of("order.created")),
            new RetryPolicy(3, Backoff.delays(ofSeconds(1), ofSeconds(10)), List.of()), QueueType.QUORUM);
    private static final Service WAREHOUSE = new Service("warehouse", List.of(Route.of("order.created")),
            new RetryPolicy(2, Backoff.delays(ofSeconds(5)), List.of()), QueueType.CLASSIC);

    private final RetrySpec spec = new RetrySpec("com.acme", "/", "shop.events", QueueSettings.POLICIES,
            List.of(EMAIL, WAREHOUSE));
    private final Topology topology = Topology.of(spec);

    @Test
    void theSpecInAnotherVhostHasTheSameTopologyThere() {
        RetrySpec moved = spec.inVhost("tests");

        assertThat(moved.vhost()).isEqualTo("tests");
        assertThat(moved.services()).isEqualTo(spec.services());
        assertThat(Topology.of(moved).vhost()).isEqualTo("tests");
        assertThat(Topology.of(moved)).isEqualTo(new Topology("tests", topology.exchanges(), topology.queues(),
                topology.bindings(), topology.policies()));
    }

    @Test
    void everyTierHasItsOwnQueueWithAQueueLevelTtl() {
        assertThat(topology.policies()).filteredOn(policy -> policy.name().startsWith("email.retry."))
                .extracting(policy -> policy.definition().get("message-ttl"))
                .containsExactly(1_000L, 10_000L);
        assertThat(topology.queues()).allSatisfy(queue ->
                assertThat(queue.arguments()).doesNotContainKeys("x-message-ttl", "x-expires"));
    }

    @Test
    void aTierDeadLettersBackToItsOwnServiceOnlyThroughTheDefaultExchange() {
        Policy tier = policy("email.retry.1");

        assertThat(tier.definition()).contains(
                entry("dead-letter-exchange", ""),
                entry("dead-letter-routing-key", "email"));
        assertThat(topology.bindings()).noneMatch(binding -> binding.queue().contains(".retry."));
    }

    @Test
    void eachServiceHasAParkingLotItsQueueDeadLettersTo() {
        assertThat(topology.queues()).extracting(Queue::name).contains("email.parking-lot", "warehouse.parking-lot");
        assertThat(policy("email").definition()).contains(entry("dead-letter-routing-key", "email.parking-lot"));
        assertThat(policy("warehouse").definition()).contains(entry("dead-letter-routing-key", "warehouse.parking-lot"));
        assertThat(topology.policies()).noneMatch(policy -> policy.definition().containsKey("message-ttl")
                && policy.name().endsWith(".parking-lot"));
    }

    @Test
    void quorumQueuesParkACrashingMessageThroughAnExplicitDeliveryLimit() {
        assertThat(policy("email").definition()).contains(
                entry("delivery-limit", 2),
                entry("dead-letter-strategy", "at-least-once"),
                entry("overflow", "reject-publish"));
        assertThat(policy("email.parking-lot").definition())
                .containsExactly(entry("delivery-limit", Topology.PARKING_LOT_DELIVERY_LIMIT));
        assertThat(policy("email.retry.2").definition()).contains(entry("dead-letter-strategy", "at-least-once"));
    }

    @Test
    void classicQueuesGetNoQuorumOnlySettings() {
        assertThat(policy("warehouse").definition()).doesNotContainKeys("delivery-limit", "dead-letter-strategy", "overflow");
        assertThat(topology.policies()).extracting(Policy::name).doesNotContain("warehouse.parking-lot");
        assertThat(topology.queue("warehouse.retry.1").arguments()).containsExactly(entry("x-queue-type", "classic"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validSpecs")
    void policiesMatchExactlyOneQueueEachAndOutrankCatchAllPolicies(Path file) throws IOException {
        Topology derived = Topology.of(Specs.load(file));

        Map<String, Policy> byQueue = derived.policiesByQueue();
        assertThat(byQueue.values()).containsExactlyInAnyOrderElementsOf(derived.policies());
        for (Policy policy : derived.policies()) {
            Pattern pattern = Pattern.compile(policy.pattern());
            assertThat(derived.queues()).filteredOn(queue -> pattern.matcher(queue.name()).find())
                    .extracting(Queue::name).singleElement().satisfies(queue -> assertThat(byQueue.get(queue)).isEqualTo(policy));
            assertThat(Names.parseQueue(policy.name())).as("%s is named after its service", policy.name()).isPresent();
            assertThat(policy.applyTo()).isEqualTo("queues");
            assertThat(policy.priority()).isPositive();
        }
    }

    @Test
    void aKeptQueueIsTheOnlyNameThatIsNotItsServices() {
        Service user = new Service("ucenter-user", "ucenter@user", List.of(Route.of("user.created"),
                Route.of("user.deleted")), new RetryPolicy(3, Backoff.delays(ofSeconds(1), ofSeconds(10)), List.of()),
                QueueType.QUORUM);
        RetrySpec kept = new RetrySpec("com.acme", "/", "shop.events", QueueSettings.POLICIES, List.of(user, WAREHOUSE));

        Topology derived = Topology.of(kept);

        assertThat(derived.queues()).extracting(Queue::name).containsExactly("ucenter-user.parking-lot",
                "ucenter-user.retry.1", "ucenter-user.retry.2", "ucenter@user", "warehouse", "warehouse.parking-lot",
                "warehouse.retry.1");
        assertThat(derived.bindings()).filteredOn(binding -> binding.routingKey().startsWith("user."))
                .containsExactly(new Binding("shop.events", "ucenter@user", "user.created"),
                        new Binding("shop.events", "ucenter@user", "user.deleted"));
        assertThat(derived.policies()).extracting(Policy::name).containsExactly("ucenter-user",
                "ucenter-user.parking-lot", "ucenter-user.retry.1", "ucenter-user.retry.2", "warehouse",
                "warehouse.retry.1");
        Policy queuePolicy = derived.policiesByQueue().get("ucenter@user");
        assertThat(queuePolicy.name()).isEqualTo("ucenter-user");
        assertThat(queuePolicy.pattern()).isEqualTo("^ucenter\\@user$");
        assertThat(queuePolicy.definition()).contains(entry("dead-letter-routing-key", "ucenter-user.parking-lot"),
                entry("delivery-limit", 2));
        for (String tier : List.of("ucenter-user.retry.1", "ucenter-user.retry.2")) {
            assertThat(derived.policiesByQueue().get(tier).definition())
                    .as("%s dead-letters back to the kept queue", tier)
                    .contains(entry("dead-letter-exchange", ""), entry("dead-letter-routing-key", "ucenter@user"));
        }
    }

    @Test
    void aKeptQueueTakesItsSettingsAsArgumentsToo() {
        Service user = new Service("ucenter-user", "ucenter@user", List.of(Route.of("user.created")),
                new RetryPolicy(2, Backoff.delays(ofSeconds(1)), List.of()), QueueType.CLASSIC);

        Topology derived = Topology.of(new RetrySpec("com.acme", "/", "shop.events", QueueSettings.ARGUMENTS,
                List.of(user)));

        assertThat(derived.policies()).isEmpty();
        assertThat(derived.queue("ucenter@user").arguments())
                .contains(entry("x-dead-letter-routing-key", "ucenter-user.parking-lot"));
        assertThat(derived.queue("ucenter-user.retry.1").arguments())
                .contains(entry("x-dead-letter-routing-key", "ucenter@user"));
    }

    @Test
    void queuesCarryOnlyTheirTypeWhenSettingsArePolicies() {
        assertThat(topology.queue("email").arguments()).containsExactly(entry("x-queue-type", "quorum"));
    }

    @Test
    void queueArgumentsCarryEverySettingWhenThatIsAskedFor() {
        Topology withArguments = Topology.of(new RetrySpec("com.acme", "/", "shop.events", QueueSettings.ARGUMENTS,
                List.of(EMAIL)));

        assertThat(withArguments.policies()).isEmpty();
        assertThat(withArguments.queue("email.retry.1").arguments()).containsExactly(
                entry("x-dead-letter-exchange", ""),
                entry("x-dead-letter-routing-key", "email"),
                entry("x-dead-letter-strategy", "at-least-once"),
                entry("x-message-ttl", 1_000L),
                entry("x-overflow", "reject-publish"),
                entry("x-queue-type", "quorum"));
    }

    @Test
    void declaresTheSharedExchangeAsADurableTopicExchange() {
        assertThat(topology.exchanges()).containsExactly(new Exchange("shop.events", "topic", true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validSpecs")
    void namesNeverCollide(Path file) throws IOException {
        Topology derived = Topology.of(Specs.load(file));

        assertThat(derived.queues()).extracting(Queue::name).doesNotHaveDuplicates();
        assertThat(derived.policies()).extracting(Policy::name).doesNotHaveDuplicates();
        assertThat(derived.bindings()).doesNotHaveDuplicates();
    }

    static Stream<Path> validSpecs() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("src/test/resources/specs/valid"))) {
            return files.sorted().toList().stream();
        }
    }

    private Policy policy(String name) {
        return topology.policies().stream().filter(policy -> policy.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void aServiceTheBrokerDelaysHasNoTiersAndItsQueueDelaysFailedDeliveries() {
        Service sms = new Service("sms", List.of(Route.of("order.created")),
                new RetryPolicy(4, Backoff.delays(ofSeconds(1), ofSeconds(2)), List.of(), DelayBackend.BROKER),
                QueueType.QUORUM);
        Topology broker = Topology.of(new RetrySpec("com.acme", "/", "shop.events", QueueSettings.POLICIES, List.of(sms)));

        assertThat(broker.queues()).extracting(Queue::name).containsExactly("sms", "sms.parking-lot");
        assertThat(broker.policies()).filteredOn(policy -> policy.name().equals("sms")).singleElement()
                .satisfies(policy -> assertThat(policy.definition()).contains(
                        entry("delayed-retry-type", "failed"),
                        entry("delayed-retry-min", 1_000L),
                        entry("delayed-retry-max", 2_000L),
                        entry("delivery-limit", 3),
                        entry("dead-letter-routing-key", "sms.parking-lot")));
        Topology withArguments = Topology.of(new RetrySpec("com.acme", "/", "shop.events", QueueSettings.ARGUMENTS,
                List.of(sms)));
        assertThat(withArguments.queue("sms").arguments()).contains(entry("x-delayed-retry-type", "failed"),
                entry("x-delayed-retry-min", 1_000L), entry("x-delayed-retry-max", 2_000L));
    }

    @Test
    void aServiceConsumedOverAmqp10GetsTheQueueOfAServiceTheBrokerDelays() {
        Service email = new Service("email", List.of(Route.of("order.created")), new RetryPolicy(4,
                Backoff.delays(ofSeconds(10), ofMinutes(1), ofMinutes(10)), List.of(), DelayBackend.BROKER,
                Protocol.AMQP_1_0), QueueType.QUORUM);
        Topology amqp10 = Topology.of(new RetrySpec("com.acme", "/", "shop.events", QueueSettings.POLICIES,
                List.of(email)));

        // The queue's own delay, the nearest linear one to [10s, 1m, 10m], waits only a retry given no time.
        assertThat(amqp10.queues()).extracting(Queue::name).containsExactly("email", "email.parking-lot");
        assertThat(amqp10.policiesByQueue().get("email").definition()).contains(
                entry("delayed-retry-type", "failed"),
                entry("delayed-retry-min", 10_000L),
                entry("delayed-retry-max", 600_000L),
                entry("delivery-limit", 3),
                entry("dead-letter-routing-key", "email.parking-lot"));
        assertThat(BrokerVersion.requiredBy(List.of(email))).contains(BrokerVersion.DELAYED_RETRY);
    }

    @Test
    void onlyQuorumQueuesDelayRetriesOnTheBroker() {
        RetryPolicy broker = new RetryPolicy(2, Backoff.delays(ofSeconds(1)), List.of(), DelayBackend.BROKER);

        assertThatThrownBy(() -> new Service("sms", List.of(Route.of("a")), broker,
                QueueType.CLASSIC)).hasMessageContaining("only quorum queues do");
        RetryPolicy amqp10 = new RetryPolicy(2, Backoff.delays(ofSeconds(1)), List.of(), DelayBackend.BROKER,
                Protocol.AMQP_1_0);
        assertThatThrownBy(() -> new Service("sms", List.of(Route.of("a")), amqp10, QueueType.CLASSIC))
                .hasMessageContaining("is consumed over AMQP 1.0, whose delivery times and delivery limit only quorum "
                        + "queues have");
    }
}
