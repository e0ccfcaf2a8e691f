package io.github.retrytopology.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.retrytopology.model.load.Specs;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class NamesTest {

    @Test
    void derivesQueueNamesFromTheServiceName() {
        assertThat(Names.queue("cdn-purge")).isEqualTo("cdn-purge");
        assertThat(Names.tierQueue("cdn-purge", 1)).isEqualTo("cdn-purge.retry.1");
        assertThat(Names.tierQueue("cdn-purge", 12)).isEqualTo("cdn-purge.retry.12");
        assertThat(Names.parkingLot("cdn-purge")).isEqualTo("cdn-purge.parking-lot");
        assertThat(Names.policy("cdn-purge.retry.1")).isEqualTo("cdn-purge.retry.1");
        assertThat(Names.tierConstant(2)).isEqualTo("RETRY_2");
    }

    @Test
    void anExactPatternMatchesOneNameOnly() {
        Pattern pattern = Pattern.compile(Names.exactPattern("cdn-purge.retry.1"));

        assertThat(pattern.pattern()).isEqualTo("^cdn\\-purge\\.retry\\.1$");
        assertThat(pattern.matcher("cdn-purge.retry.1").matches()).isTrue();
        assertThat(pattern.matcher("cdn-purge.retry.10").find()).isFalse();
        assertThat(pattern.matcher("cdn-purgeXretryX1").find()).isFalse();
        assertThat(pattern.matcher("x.cdn-purge.retry.1").find()).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"email", "cdn-purge", "a1", "v-2", "order-platform-v3"})
    void acceptsLowerKebabCase(String name) {
        assertThat(Names.isServiceName(name)).isTrue();
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"", "CdnPurge", "cdn_purge", "cdn--purge", "-cdn", "cdn-", "2fa", "cdn.purge", "café"})
    void refusesEverythingElse(String name) {
        assertThat(Names.isServiceName(name)).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"cdn-purge, CdnPurge, CdnPurgeHandler, CDN_PURGE", "email, Email, EmailHandler, EMAIL",
        "v-2, V2, V2Handler, V_2"})
    void derivesJavaNames(String service, String type, String handlerInterface, String constant) {
        assertThat(Names.javaType(service)).isEqualTo(type);
        assertThat(Names.handlerInterface(service)).isEqualTo(handlerInterface);
        assertThat(Names.constant(service)).isEqualTo(constant);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"photo.deleted, photoDeleted", "order.created-v2, orderCreatedV2", "Photo.Deleted, photoDeleted",
        "order_paid, orderPaid", "order.créé, orderCréé", "new, new", "2fa.sent, 2faSent"})
    void namesHandlersAfterTheirKey(String key, String method) {
        assertThat(Names.handlerMethod(BindingKey.of(key))).hasValue(method);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"cdn-purge, cdn-purge, SERVICE, 0, false", "cdn-purge.retry.1, cdn-purge, TIER, 1, false",
        "x.retry.7, x, TIER, 7, false", "cdn-purge.retry.12, cdn-purge, TIER, 12, false",
        "cdn-purge.parking-lot, cdn-purge, PARKING_LOT, 0, false",
        "cdn-purge.migrating, cdn-purge, SERVICE, 0, true", "x.retry.7.migrating, x, TIER, 7, true",
        "x.parking-lot.migrating, x, PARKING_LOT, 0, true"})
    void recognisesTheQueuesItDerives(String name, String service, Names.QueueRole role, int tier, boolean migration) {
        Names.QueueName parsed = Names.parseQueue(name).orElseThrow();

        assertThat(parsed).isEqualTo(new Names.QueueName(name, service, role, tier, migration));
        String derived = switch (role) {
            case SERVICE -> Names.queue(service);
            case TIER -> Names.tierQueue(service, tier);
            case PARKING_LOT -> Names.parkingLot(service);
        };
        assertThat(parsed.topologyQueue()).isEqualTo(derived);
        assertThat(migration ? Names.migrationQueue(derived) : derived).isEqualTo(name);
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"", "CdnPurge", "amq.gen-123", "x.retry.0", "x.retry.01", "x.retry.", "x.retry.a",
        "x.retry.1.parking-lot", ".parking-lot", "X.parking-lot", "x.retry.1.migrating.migrating", "x.migrating.retry.1",
        "cdn_purge.retry.1", "x.retry.1234567890", "orders.dlq"})
    void recognisesNoOtherName(String name) {
        assertThat(Names.parseQueue(name)).isEmpty();
    }

    @Test
    void aMigrationQueueIsNeverATopologyQueue() {
        String temporary = Names.migrationQueue(Names.tierQueue("cdn-purge", 2));

        assertThat(temporary).isEqualTo("cdn-purge.retry.2.migrating");
        assertThat(Names.parseQueue(temporary)).get().extracting(Names.QueueName::migration).isEqualTo(true);
    }

    @Test
    void sourceNamesSeparateNestedClassesWithDots() {
        assertThat(Names.sourceName("com.acme.Outer$Inner")).isEqualTo("com.acme.Outer.Inner");
    }

    @Test
    void namesTheGeneratedClassesAndTheResourceThatFindsThem() {
        String text = "version: 1\npackage: com.acme.media.retry\nexchange: media.events\n"
                + "services:\n  cdn-purge:\n    maxAttempts: 1\n    routingKeys: [photo.deleted]\n";
        RetrySpec spec = Specs.parse(text.getBytes(StandardCharsets.UTF_8), "retry.yml");

        assertThat(spec.topologyClass()).isEqualTo("com.acme.media.retry.RetryTopology");
        assertThat(spec.handlerInterface(spec.service("cdn-purge"))).isEqualTo("com.acme.media.retry.CdnPurgeHandler");
        assertThat(spec.topologyResource()).isEqualTo("META-INF/retry-topology/com.acme.media.retry.properties");
        assertThat(Names.TOPOLOGY_RESOURCE_PATTERN).isEqualTo("META-INF/retry-topology/*.properties");
    }
}
