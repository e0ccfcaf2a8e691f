package io.github.retrytopology.runtime.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PayloadCodecTest {

    private static final String NONE = null;

    private final PayloadCodec builtIn = PayloadCodec.builtIn();

    @Test
    void givesTheBodyAsItIs() {
        byte[] body = {1, 2, 3};

        assertThat(builtIn.decode(body, byte[].class, NONE)).containsExactly(1, 2, 3).isNotSameAs(body);
    }

    @Test
    void decodesUtf8TextByDefault() {
        assertThat(builtIn.decode("café".getBytes(StandardCharsets.UTF_8), String.class, NONE)).isEqualTo("café");
    }

    @Test
    void decodesTextInTheCharsetOfItsContentType() {
        String latin1 = "text/plain; charset=\"ISO-8859-1\"";

        assertThat(builtIn.decode(new byte[] {'c', 'a', 'f', (byte) 0xE9}, String.class, latin1)).isEqualTo("café");
    }

    @Test
    void refusesTextThatIsNotValidInItsCharset() {
        assertThatThrownBy(() -> builtIn.decode(new byte[] {(byte) 0xC3, (byte) 0x28}, String.class, NONE))
                .isInstanceOf(UndecodablePayloadException.class).hasMessage("not valid UTF-8 text");
    }

    @Test
    void refusesACharsetThisJvmLacks() {
        String unknown = "text/plain; charset=klingon";

        assertThatThrownBy(() -> builtIn.decode(new byte[] {'a'}, String.class, unknown))
                .isInstanceOf(UndecodablePayloadException.class).hasMessageContaining("KLINGON");
    }

    @Test
    void decodesOnlyBytesAndText() {
        assertThat(builtIn.canDecode(byte[].class)).isTrue();
        assertThat(builtIn.canDecode(String.class)).isTrue();
        assertThat(builtIn.canDecode(Order.class)).isFalse();
    }

    record Order(int id, String customer) {
    }

    @Test
    void decodesJsonIntoRecordsWithJackson() {
        PayloadCodec codec = builtIn.or(new JacksonPayloadCodec(new ObjectMapper()));

        Order order = codec.decode("{\"id\":42,\"customer\":\"ada\"}".getBytes(StandardCharsets.UTF_8), Order.class, NONE);

        assertThat(order).isEqualTo(new Order(42, "ada"));
        assertThat(codec.decode("plain".getBytes(StandardCharsets.UTF_8), String.class, NONE)).isEqualTo("plain");
    }

    @Test
    void refusesJsonThatIsNotThePayloadType() {
        PayloadCodec codec = new JacksonPayloadCodec(new ObjectMapper());

        assertThatThrownBy(() -> codec.decode("{\"id\":".getBytes(StandardCharsets.UTF_8), Order.class, NONE))
                .isInstanceOf(UndecodablePayloadException.class)
                .hasMessageStartingWith("invalid JSON: Unexpected end-of-input");
    }

    @Test
    void saysWhichValueOfWellFormedJsonDoesNotFitThePayloadType() {
        PayloadCodec codec = new JacksonPayloadCodec(new ObjectMapper());

        assertThatThrownBy(() -> codec.decode("{\"id\":\"forty-two\",\"customer\":\"ada\"}".getBytes(StandardCharsets.UTF_8),
                Order.class, NONE))
                .isInstanceOf(UndecodablePayloadException.class)
                .hasMessageStartingWith("JSON that does not fit " + Order.class.getName() + " at id: Cannot deserialize "
                        + "value of type `int` from String \"forty-two\"");
        assertThatThrownBy(() -> codec.decode("[1, 2]".getBytes(StandardCharsets.UTF_8), Order.class, NONE))
                .isInstanceOf(UndecodablePayloadException.class)
                .hasMessageStartingWith("JSON that does not fit " + Order.class.getName() + ": Cannot deserialize value")
                .hasMessageNotContaining("invalid JSON");
    }
}
