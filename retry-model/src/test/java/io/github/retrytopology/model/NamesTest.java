package io.github.retrytopology.model;

import static org.assertj.core.api.Assertions.assertThat;

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

    @Test
    void sourceNamesSeparateNestedClassesWithDots() {
        assertThat(Names.sourceName("com.acme.Outer$Inner")).isEqualTo("com.acme.Outer.Inner");
    }
}
