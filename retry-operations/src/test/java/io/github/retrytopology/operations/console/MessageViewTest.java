package io.github.retrytopology.operations.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.retrytopology.runtime.headers.MessageProperties;
import io.github.retrytopology.runtime.headers.RetryHeaders;
import io.github.retrytopology.runtime.parkinglot.ParkedMessage;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MessageViewTest {

    @Test
    void prettyPrintsAJsonBody() {
        MessageView.Body body = MessageView.body(message("{\"order\":42,\"items\":[1,2]}".getBytes(StandardCharsets.UTF_8)));

        assertThat(body.format()).isEqualTo("json");
        assertThat(body.text()).isEqualTo("{\n  \"order\" : 42,\n  \"items\" : [ 1, 2 ]\n}");
        assertThat(body.truncated()).isFalse();
    }

    @Test
    void showsTextAsItIs() {
        MessageView.Body body = MessageView.body(message("photo-42.jpg\nwas deleted".getBytes(StandardCharsets.UTF_8)));

        assertThat(body.format()).isEqualTo("text");
        assertThat(body.text()).isEqualTo("photo-42.jpg\nwas deleted");
    }

    @Test
    void dumpsBytesThatAreNotTextAsHex() {
        byte[] bytes = {0x00, 0x01, 'a', 'b', (byte) 0xff, 0x7f, 0x10, 0x20, 'x', 'y', 'z', 0, 0, 0, 0, 0, 'q'};

        MessageView.Body body = MessageView.body(message(bytes));

        assertThat(body.format()).isEqualTo("hex");
        assertThat(body.text()).isEqualTo(
                "00000000  00 01 61 62 ff 7f 10 20  78 79 7a 00 00 00 00 00  ..ab... xyz.....\n"
                        + "00000010  71                                                q\n");
        assertThat(body.bytes()).isEqualTo(17);
    }

    @Test
    void showsTheFirstPartOfABodyTooLargeToShow() {
        byte[] large = "x".repeat(MessageView.MAX_BODY + 10).getBytes(StandardCharsets.UTF_8);

        MessageView.Body body = MessageView.body(message(large));

        assertThat(body.truncated()).isTrue();
        assertThat(body.bytes()).isEqualTo(MessageView.MAX_BODY + 10);
        assertThat(body.text()).hasSize(MessageView.MAX_BODY);
    }

    @Test
    void showsHeaderValuesAsText() {
        assertThat(MessageView.display("orders")).isEqualTo("orders");
        assertThat(MessageView.display(List.of(Map.of("queue", "orders"), 3L)))
                .isEqualTo("[{queue: orders}, 3]");
        assertThat(MessageView.display(new Date(0))).isEqualTo("1970-01-01T00:00:00Z");
        assertThat(MessageView.display(new byte[] {1, 2})).isEqualTo("0102");
    }

    @Test
    void notesBesideTheDeliveryCountThatTheConsolesOwnReadsCountToo() {
        MessageProperties counted = new MessageProperties("m", null,
                Map.of(RetryHeaders.X_DELIVERY_COUNT, 2L, RetryHeaders.ATTEMPTS, 4), Map.of());

        MessageView.Detail detail = MessageView.detail(new ParkedMessage(counted, new byte[0], 1));

        assertThat(detail.headers()).containsEntry(RetryHeaders.X_DELIVERY_COUNT, "2");
        assertThat(detail.headerNotes()).containsOnlyKeys(RetryHeaders.X_DELIVERY_COUNT);
        assertThat(detail.headerNotes().get(RetryHeaders.X_DELIVERY_COUNT).note())
                .isEqualTo("counts the console's own reads too");
        assertThat(detail.headerNotes().get(RetryHeaders.X_DELIVERY_COUNT).why())
                .contains("takes it from the parking lot and gives it back");
    }

    @Test
    void notesNothingForAMessageTheBrokerHasNotCounted() {
        MessageView.Detail detail = MessageView.detail(message(new byte[0]));

        assertThat(detail.headerNotes()).isEmpty();
    }

    private static ParkedMessage message(byte[] body) {
        return new ParkedMessage(new MessageProperties("m", null, Map.of(), Map.of()), body, 1);
    }
}
