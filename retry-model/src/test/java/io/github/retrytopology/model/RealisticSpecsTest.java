package io.github.retrytopology.model;

import static java.time.Duration.ofHours;
import static java.time.Duration.ofMinutes;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.retrytopology.model.decision.Backoff;
import io.github.retrytopology.model.decision.BrokerDelay;
import io.github.retrytopology.model.decision.DelayBackend;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.topology.Binding;
import io.github.retrytopology.model.topology.Topology;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The three specs the project grew from, and those that show a feature, read into the model. */
class RealisticSpecsTest {

    static RetrySpec load(String fixture) throws IOException {
        return Specs.load(Path.of("src/test/resources/specs/valid", fixture));
    }

    @Test
    void cdnPurgeGrowsItsDelaysThreefold() throws IOException {
        RetrySpec spec = load("cdn-purge.yml");

        assertThat(spec.javaPackage()).isEqualTo("com.acme.media.retry");
        assertThat(spec.vhost()).isEqualTo("/");
        assertThat(spec.exchange()).isEqualTo("media.events");
        assertThat(spec.queueSettings()).isEqualTo(QueueSettings.POLICIES);
        Service purge = spec.service("cdn-purge");
        assertThat(purge.queueType()).isEqualTo(QueueType.QUORUM);
        assertThat(purge.routes()).containsExactly(Route.of("photo.deleted"), Route.of("album.deleted"));
        assertThat(purge.routes()).extracting(Route::handler).containsExactly("photoDeleted", "albumDeleted");
        assertThat(purge.retryPolicy().maxAttempts()).isEqualTo(5);
        assertThat(purge.retryPolicy().backoff())
                .isEqualTo(Backoff.exponential(ofSeconds(10), new BigDecimal("3"), ofMinutes(30)));
        assertThat(purge.retryPolicy().nonRetryable()).containsExactly("java.lang.IllegalArgumentException");
        assertThat(purge.tiers()).containsExactly(
                new Tier(1, ofSeconds(10), "cdn-purge.retry.1"),
                new Tier(2, ofSeconds(30), "cdn-purge.retry.2"),
                new Tier(3, ofSeconds(90), "cdn-purge.retry.3"),
                new Tier(4, ofSeconds(270), "cdn-purge.retry.4"));
        assertThat(purge.queue()).isEqualTo("cdn-purge");
        assertThat(purge.parkingLot()).isEqualTo("cdn-purge.parking-lot");
        assertThat(purge.deliveryLimit()).isEqualTo(4);
        assertThat(purge.javaType()).isEqualTo("CdnPurge");
        assertThat(purge.handlerInterface()).isEqualTo("CdnPurgeHandler");
        assertThat(purge.constant()).isEqualTo("CDN_PURGE");
    }

    @Test
    void orderPlatformServicesInheritSteppedDelays() throws IOException {
        RetrySpec spec = load("order-platform.yml");
        List<Duration> steps = List.of(ofSeconds(10), ofSeconds(100), ofHours(1), ofHours(2), ofHours(10));

        assertThat(spec.vhost()).isEqualTo("orders");
        assertThat(spec.services()).extracting(Service::name).containsExactly("email", "ticketing", "finance");
        assertThat(spec.services()).allSatisfy(service -> {
            assertThat(service.retryPolicy().tiers()).isEqualTo(steps);
            assertThat(service.retryPolicy().nonRetryable()).containsExactly("com.acme.orders.InvalidOrderException");
        });
        assertThat(spec.service("email").retryPolicy().maxAttempts()).isEqualTo(6);
        assertThat(spec.service("finance").retryPolicy().maxAttempts()).isEqualTo(8);
        assertThat(spec.service("ticketing").routes()).containsExactly(
                new Route(BindingKey.of("order.*"), "orderEvent", Optional.of("com.acme.orders.OrderEvent")));
        assertThat(spec.service("finance").routes()).containsExactly(
                new Route(BindingKey.of("order.completed"), "orderCompleted", Optional.of("com.acme.orders.OrderEvent")),
                Route.of("order.refunded"));
        assertThat(Topology.of(spec).bindings()).containsExactly(
                new Binding("orders.events", "email", "order.created"),
                new Binding("orders.events", "email", "order.paid"),
                new Binding("orders.events", "finance", "order.completed"),
                new Binding("orders.events", "finance", "order.refunded"),
                new Binding("orders.events", "ticketing", "order.*"));
    }

    @Test
    void servicesSharingARoutingKeyEachGetTheirOwnQueues() throws IOException {
        RetrySpec spec = load("shared-routing-key.yml");

        assertThat(Topology.of(spec).bindings()).containsExactly(
                new Binding("shop.events", "invoicing", "order.placed"),
                new Binding("shop.events", "warehouse", "order.placed"));
        assertThat(Topology.of(spec).queues()).extracting(queue -> queue.name()).containsExactly(
                "invoicing", "invoicing.parking-lot", "invoicing.retry.1", "invoicing.retry.2",
                "warehouse", "warehouse.parking-lot", "warehouse.retry.1", "warehouse.retry.2");
    }

    @Test
    void servicesConsumedOverAmqp10HaveTheBrokerHoldEachListedDelay() throws IOException {
        RetrySpec spec = load("amqp10.yml");
        Service email = spec.service("email");
        Service push = spec.service("push");

        assertThat(email.protocol()).isEqualTo(Protocol.AMQP_1_0);
        assertThat(email.delayBackend()).isEqualTo(DelayBackend.BROKER);
        assertThat(email.tiers()).isEmpty();
        assertThat(List.of(email.retryPolicy().delayBefore(1), email.retryPolicy().delayBefore(2),
                email.retryPolicy().delayBefore(3))).containsExactly(ofSeconds(10), ofMinutes(1), ofMinutes(10));
        assertThat(email.retryPolicy().brokerDelay()).contains(new BrokerDelay(ofSeconds(10), ofMinutes(10)));
        assertThat(push.delayBackend()).isEqualTo(DelayBackend.BROKER);
        assertThat(push.retryPolicy().delayBefore(7)).isEqualTo(ofMinutes(1));
        assertThat(push.retryPolicy().delayBefore(3)).isEqualTo(ofSeconds(4));
        assertThat(spec.service("sms").protocol()).isEqualTo(Protocol.AMQP_0_9_1);
        assertThat(spec.service("sms").tiers()).hasSize(2);
    }

    @Test
    void aProtocolInDefaultsImpliesTheBrokerUnlessAServiceSetsItsOwn() throws IOException {
        RetrySpec spec = load("amqp10-defaults.yml");

        assertThat(spec.services()).filteredOn(service -> !service.name().equals("audit")).allSatisfy(service -> {
            assertThat(service.protocol()).isEqualTo(Protocol.AMQP_1_0);
            assertThat(service.delayBackend()).isEqualTo(DelayBackend.BROKER);
            assertThat(service.tiers()).isEmpty();
        });
        assertThat(spec.service("audit").protocol()).isEqualTo(Protocol.AMQP_0_9_1);
        assertThat(spec.service("audit").delayBackend()).isEqualTo(DelayBackend.TIER_QUEUES);
        assertThat(spec.service("audit").retryPolicy().tiers())
                .containsExactly(ofSeconds(2), ofSeconds(20), ofMinutes(5));
    }

    @Test
    void aServiceThatNeverRetriesHasNoTiers() throws IOException {
        Service audit = load("never-retry.yml").service("audit-log");

        assertThat(audit.tiers()).isEmpty();
        assertThat(audit.deliveryLimit()).isZero();
        assertThat(audit.routes()).containsExactly(Route.of("#", "everything"));
    }
}
