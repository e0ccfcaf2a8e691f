package io.github.retrytopology.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Topic matching with RabbitMQ's semantics; the cases follow its topic exchange, word for word. */
class BindingKeyTest {

    @ParameterizedTest(name = "''{0}'' matches ''{1}'': {2}")
    @CsvSource(delimiter = '|', value = {
        "photo.deleted   | photo.deleted       | true",
        "photo.deleted   | photo.created       | false",
        "photo.deleted   | photo.deleted.now   | false",
        // '*' is exactly one word
        "photo.*         | photo.deleted       | true",
        "photo.*         | photo               | false",
        "photo.*         | photo.a.b           | false",
        "*               | ''                  | false",
        "*.*             | a.b                 | true",
        // '#' is zero or more words
        "photo.#         | photo               | true",
        "photo.#         | photo.deleted       | true",
        "photo.#         | photo.a.b.c         | true",
        "#               | ''                  | true",
        "#               | a.b.c               | true",
        "#.deleted       | deleted             | true",
        "#.deleted       | a.b.deleted         | true",
        "#.deleted       | a.deleted.b         | false",
        "a.#.z           | a.z                 | true",
        "a.#.z           | a.b.c.z             | true",
        "a.#.#.z         | a.z                 | true",
        "#.*             | ''                  | false",
        "#.*             | a                   | true",
        "*.#.*           | a                   | false",
        "*.#.*           | a.b                 | true",
        // empty words are words: the empty key has none, every dot separates two
        "photo.*         | photo.              | true",
        "*.deleted       | .deleted            | true",
        "a.*.b           | a..b                | true",
        "a.b             | a..b                | false",
        "*               | .                   | false",
        "*.*             | .                   | true",
        "#               | ..                  | true",
    })
    void matchesLikeRabbitMqTopicExchange(String key, String routingKey, boolean matches) {
        assertThat(BindingKey.of(key).matches(routingKey)).isEqualTo(matches);
    }

    @ParameterizedTest(name = "''{0}'' covers ''{1}'': {2}")
    @CsvSource(delimiter = '|', value = {
        "order.#         | order.created       | true",
        "order.*         | order.created       | true",
        "order.created   | order.*             | false",
        "#               | a.*.#               | true",
        "order.*         | order.#             | false",
        "order.#         | order.*.*           | true",
        "*.#             | #.x                 | true",
        "#.x             | *.#                 | false",
        "a.*             | *.b                 | false",
        "*.*             | *.b                 | true",
        "a.#.b           | a.b                 | true",
        "a.#.b           | a.*.b               | true",
        "a.#.b           | a.#.c               | false",
        "a.b             | a.b                 | true",
    })
    void coversAnotherKeyWhenItMatchesEverythingTheOtherMatches(String key, String other, boolean covers) {
        assertThat(BindingKey.of(key).covers(BindingKey.of(other))).isEqualTo(covers);
    }

    @Test
    void matchesKeysFullOfHashesWithoutBlowingUp() {
        String key = "#." .repeat(60) + "end";
        String routingKey = "w.".repeat(120) + "nope";

        assertThat(BindingKey.of(key).matches(routingKey)).isFalse();
    }

    @ParameterizedTest(name = "''{0}''")
    @CsvSource(delimiter = '|', value = {
        "''               | a binding key needs at least one word",
        "photo*           | '*' and '#' stand only for whole words",
        "photo.#deleted   | '*' and '#' stand only for whole words",
        "**               | '*' and '#' stand only for whole words",
        "photo..deleted   | has an empty word",
        ".photo           | has an empty word",
        "photo.           | has an empty word",
        "'photo. deleted' | contains white space",
    })
    void refusesKeysRabbitMqWouldNotTreatAsMeant(String key, String problem) {
        assertThat(BindingKey.problem(key)).hasValueSatisfying(message -> assertThat(message).contains(problem));
        assertThatThrownBy(() -> BindingKey.of(key)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(problem);
    }

    @Test
    void refusesKeysLongerThan255Bytes() {
        String key = "é".repeat(128);

        assertThat(BindingKey.problem(key)).hasValue("'" + key + "' is 256 bytes long; RabbitMQ allows at most 255");
        assertThat(BindingKey.problem("é".repeat(127))).isEmpty();
    }

    @Test
    void knowsWhetherItHasWildcards() {
        assertThat(BindingKey.of("photo.deleted").hasWildcards()).isFalse();
        assertThat(BindingKey.of("photo.*").hasWildcards()).isTrue();
        assertThat(BindingKey.of("#").hasWildcards()).isTrue();
    }
}
