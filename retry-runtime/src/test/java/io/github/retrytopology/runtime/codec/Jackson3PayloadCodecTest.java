package io.github.retrytopology.runtime.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class Jackson3PayloadCodecTest {

    private static final String NONE = null;

    private final PayloadCodec codec = PayloadCodec.builtIn().or(new Jackson3PayloadCodec(JsonMapper.builder().build()));

    record Photo(int id) {
    }

    record Album(String name, List<Photo> photos) {
    }

    @Test
    void decodesJsonIntoRecords() {
        Album album = codec.decode(bytes("{\"name\":\"summer\",\"photos\":[{\"id\":1},{\"id\":2}]}"), Album.class, NONE);

        assertThat(album).isEqualTo(new Album("summer", List.of(new Photo(1), new Photo(2))));
        assertThat(codec.decode(bytes("plain"), String.class, NONE)).isEqualTo("plain");
    }

    @Test
    void saysABodyIsNotJson() {
        assertThatThrownBy(() -> codec.decode(bytes("{\"name\":"), Album.class, NONE))
                .isInstanceOf(UndecodablePayloadException.class)
                .hasMessageStartingWith("invalid JSON: Unexpected end-of-input");
    }

    @Test
    void saysWhichValueDoesNotFitThePayloadType() {
        assertThatThrownBy(() -> codec.decode(bytes("{\"name\":\"summer\",\"photos\":[{\"id\":1},{\"id\":2},{\"id\":\"x\"}]}"),
                Album.class, NONE))
                .isInstanceOf(UndecodablePayloadException.class)
                .hasMessageStartingWith("JSON that does not fit " + Album.class.getName() + " at photos[2].id: Cannot "
                        + "deserialize value of type `int` from String \"x\"");
        assertThatThrownBy(() -> codec.decode(bytes("[1, 2]"), Album.class, NONE))
                .isInstanceOf(UndecodablePayloadException.class)
                .hasMessageStartingWith("JSON that does not fit " + Album.class.getName() + ": Cannot deserialize value")
                .hasMessageNotContaining("invalid JSON");
    }

    @Test
    void decodesNoPrimitive() {
        assertThat(codec.canDecode(int.class)).isFalse();
        assertThat(codec.canDecode(Album.class)).isTrue();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
