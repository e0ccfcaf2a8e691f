package io.github.retrytopology.operations.adopt;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KeyPatternTest {

    @ParameterizedTest(name = "{0} and {1}: {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            user.created   | user.created   | true
            user.created   | user.deleted   | false
            user.*         | user.created   | true
            user.*         | user.a.b       | false
            user.#         | user           | true
            user.#         | user.a.b       | true
            #              | ""             | true
            *              | ""             | false
            *.created      | user.*         | true
            a.*.c          | a.b.*          | true
            a.*.c          | a.b.d          | false
            #.c            | a.#            | true
            #.c            | b              | false
            a.#.z          | a.*.*.z        | true
            a.#.z          | a.z.b          | false
            """)
    void topicKeysOverlapWhenSomeRoutingKeyMatchesBoth(String a, String b, boolean overlap) {
        assertThat(KeyPattern.topic(a).overlaps(KeyPattern.topic(b))).isEqualTo(overlap);
        assertThat(KeyPattern.topic(b).overlaps(KeyPattern.topic(a))).isEqualTo(overlap);
    }

    @ParameterizedTest(name = "{0} matches {1}: {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            user.*     | user.created  | true
            user.*     | user.*        | true
            user.#     | user          | true
            #          | ""            | true
            ""         | ""            | true
            ""         | a             | false
            a..b       | a..b          | true
            a.*.b      | a..b          | true
            """)
    void aTopicKeyMatchesRoutingKeysAsRabbitMqDoes(String bindingKey, String routingKey, boolean matches) {
        assertThat(KeyPattern.topic(bindingKey).matches(routingKey)).isEqualTo(matches);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"user.*", "#"})
    void aDirectKeyMatchesItsWildcardsWordForWord(String key) {
        assertThat(KeyPattern.literal(key).overlaps(KeyPattern.literal("user.created"))).isFalse();
        assertThat(KeyPattern.literal(key).overlaps(KeyPattern.literal(key))).isTrue();
        assertThat(KeyPattern.literal(key).single()).isTrue();
        assertThat(KeyPattern.topic(key).single()).isFalse();
    }
}
