package io.github.retrytopology.runtime.amqp091;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.LongString;
import com.rabbitmq.client.impl.LongStringHelper;
import io.github.retrytopology.model.headers.Header;
import io.github.retrytopology.runtime.headers.MessageProperties;
import io.github.retrytopology.runtime.headers.RetryHeaders;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the Java client delivers, as the protocol-free headers and properties take it. */
class ReceivedTest {

    private static final Instant AT = Instant.parse("2026-11-22T10:00:00Z");

    @Test
    void longStringsBecomeStringsInTablesAndArraysToo() {
        Map<String, Object> death = Map.of("queue", LongStringHelper.asLongString("orders.retry.1"), "reason",
                LongStringHelper.asLongString("expired"), "count", 2L, "time", Date.from(AT),
                "routing-keys", List.of(LongStringHelper.asLongString("orders.retry.1")));
        Map<String, Object> delivered = Map.of(Header.ORIGINAL_ROUTING_KEY.name(),
                LongStringHelper.asLongString("order.created"), Header.ATTEMPTS.name(), 3,
                Header.X_DEATH.name(), List.of(death), "tenant", LongStringHelper.asLongString("acme ✓"));

        Map<String, Object> plain = Received.headers(delivered);

        assertThat(plain).containsEntry("tenant", "acme ✓")
                .containsEntry(Header.ORIGINAL_ROUTING_KEY.name(), "order.created")
                .containsEntry(Header.ATTEMPTS.name(), 3);
        assertThat(plain.get(Header.X_DEATH.name())).isEqualTo(List.of(Map.of("queue", "orders.retry.1", "reason",
                "expired", "count", 2L, "time", Date.from(AT), "routing-keys", List.of("orders.retry.1"))));
        RetryHeaders read = RetryHeaders.of(plain);
        assertThat(read.originalRoutingKey()).hasValue("order.created");
        assertThat(read.deaths()).singleElement().satisfies(entry -> {
            assertThat(entry.queue()).isEqualTo("orders.retry.1");
            assertThat(entry.routingKeys()).containsExactly("orders.retry.1");
            assertThat(entry.time()).hasValue(AT);
        });
        assertThat(plain.values()).noneMatch(LongString.class::isInstance);
    }

    @Test
    void aLongStringThatIsNotUtf8KeepsItsBytes() {
        byte[] binary = {(byte) 0xff, (byte) 0xfe, 'a'};
        String replacement = "keeps \uFFFD, which UTF-8 can encode";

        Map<String, Object> plain = Received.headers(Map.of("binary", LongStringHelper.asLongString(binary),
                "replacement", LongStringHelper.asLongString(replacement)));

        assertThat(plain.get("binary")).isEqualTo(binary);
        assertThat(plain).containsEntry("replacement", replacement);
    }

    @Test
    void theCopyIsUnmodifiableAndNoLaterChangeReachesIt() {
        List<Object> list = new ArrayList<>(List.of(1));
        Map<String, Object> delivered = new HashMap<>(Map.of("list", list));
        delivered.put("none", null);

        Map<String, Object> plain = Received.headers(delivered);
        list.add(2);
        delivered.clear();

        assertThat(plain).containsEntry("list", List.of(1)).containsEntry("none", null);
        assertThatThrownBy(() -> plain.remove("list")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ((List<?>) plain.get("list")).clear())
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(Received.headers(null)).isEmpty();
    }

    @Test
    void propertiesKeepTheMessageIdContentTypeAndHeadersAndShowTheRestAsText() {
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().messageId("m-1")
                .contentType("application/json").correlationId("c-1").timestamp(Date.from(AT)).deliveryMode(2)
                .priority(3).headers(Map.of("tenant", LongStringHelper.asLongString("acme"))).build();

        MessageProperties read = Received.properties(properties);

        assertThat(read.messageId()).isEqualTo("m-1");
        assertThat(read.contentType()).isEqualTo("application/json");
        assertThat(read.headers()).containsExactlyEntriesOf(Map.of("tenant", "acme"));
        assertThat(read.other()).containsExactly(Map.entry("correlationId", "c-1"),
                Map.entry("timestamp", "2026-11-22T10:00:00Z"), Map.entry("deliveryMode", "2"),
                Map.entry("priority", "3"));
    }
}
