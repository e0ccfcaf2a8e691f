package io.github.retrytopology.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

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
        // '#.#' means what '#' means, as in RabbitMQ
        "#.#             | ''                  | true",
        "#.#             | a                   | true",
        "#.#             | a.b.c               | true",
        "a.#.#.#.b       | a.b                 | true",
        "a.#.#.#.b       | a.x.y.b             | true",
        "#.#.*           | ''                  | false",
        "#.#.*           | a                   | true",
        "#.*.#           | a.b                 | true",
        "*.#.#           | ''                  | false",
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
        "#               | #.#                 | true",
        "#.#             | #                   | true",
        "a.#             | a.#.#               | true",
        "*.#.*           | #.*.*               | true",
        "#.*.*           | *.*.*               | true",
        "#.a.#           | *.a.#.b             | true",
        "#.a.#           | *.#.b               | false",
        "*.*.#           | #.*.*               | true",
        "a.*.#           | a.#                 | false",
    })
    void coversAnotherKeyWhenItMatchesEverythingTheOtherMatches(String key, String other, boolean covers) {
        assertThat(BindingKey.of(key).covers(BindingKey.of(other))).isEqualTo(covers);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pathologicalKeys")
    void matchesPathologicalKeysLikeTheReference(String key, String routingKey) {
        assertThat(BindingKey.of(key).matches(routingKey)).isEqualTo(WordLists.matches(key, routingKey));
    }

    static Stream<Arguments> pathologicalKeys() {
        return Stream.of(
                Arguments.of("#.".repeat(125) + "w1", "w.".repeat(126) + "w1"),
                Arguments.of("#.".repeat(125) + "w1", "w.".repeat(126) + "nope"),
                Arguments.of("#.a.".repeat(63) + "#", "a.".repeat(127) + "b"),
                Arguments.of("#.a.".repeat(63) + "b", "a.".repeat(127) + "a"),
                Arguments.of("*.".repeat(127) + "*", "w.".repeat(127) + "w"),
                Arguments.of("*.".repeat(127) + "*", "w.".repeat(126) + "w"),
                Arguments.of("*.#.".repeat(63) + "*", "w.".repeat(200) + "w"),
                Arguments.of("a.".repeat(127) + "#", "a.".repeat(127) + "b.c"),
                Arguments.of("#." + "a.".repeat(126) + "b", "a.".repeat(300) + "b"),
                Arguments.of("#." + "a.*.".repeat(63) + "a", "a.".repeat(300) + "a"));
    }

    @Test
    void matchesAsTheReferenceDoesForRandomKeys() {
        Random random = new Random(12);
        for (int i = 0; i < 20_000; i++) {
            String key = randomPattern(random, 1 + random.nextInt(i % 50 == 0 ? 128 : 7));
            String routingKey = randomRoutingKey(random, random.nextInt(i % 50 == 0 ? 140 : 9));

            assertThat(BindingKey.of(key).matches(routingKey)).as("'%s' matches '%s'", key, routingKey)
                    .isEqualTo(WordLists.matches(key, routingKey));
        }
    }

    @Test
    void coversOnlyWhatItMatchesForRandomKeys() {
        Random random = new Random(34);
        List<String> routingKeys = allRoutingKeys(7);
        for (int i = 0; i < 3_000; i++) {
            BindingKey key = BindingKey.of(randomPattern(random, 1 + random.nextInt(4)));
            BindingKey other = BindingKey.of(randomPattern(random, 1 + random.nextInt(4)));
            boolean everyKeyMatched = routingKeys.stream().filter(other::matches).allMatch(key::matches);

            if (key.covers(other)) {
                assertThat(everyKeyMatched).as("'%s' covers '%s'", key, other).isTrue();
            }
            if (!other.value().contains("#")) {
                assertThat(key.covers(other)).as("'%s' covers '%s'", key, other).isEqualTo(everyKeyMatched);
            }
        }
    }

    @Test
    void coversLongKeysAsTheReferenceDoes() {
        Random random = new Random(56);
        for (int i = 0; i < 2_000; i++) {
            String key = randomPattern(random, 1 + random.nextInt(128));
            String other = randomPattern(random, 1 + random.nextInt(128));

            assertThat(BindingKey.of(key).covers(BindingKey.of(other))).as("'%s' covers '%s'", key, other)
                    .isEqualTo(WordLists.covers(key, other));
        }
    }

    @Test
    void matchesWithoutAllocating() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        BindingKey[] keys = {BindingKey.of("order.*.paid"), BindingKey.of("#.a.#.a.#.b"), BindingKey.of("order.#"),
            BindingKey.of("*.".repeat(100) + "#")};
        String[] routingKeys = {"order.42.paid", "order.42.refunded", "a.x.a.y.b", "x.".repeat(120) + "y", ""};
        int matched = countMatches(keys, routingKeys, 1_000);

        long before = threads.getCurrentThreadAllocatedBytes();
        matched += countMatches(keys, routingKeys, 10_000);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertThat(matched).isPositive();
        assertThat(allocated).as("bytes allocated by 200,000 matches").isLessThan(64 * 1024);
    }

    private static int countMatches(BindingKey[] keys, String[] routingKeys, int rounds) {
        int matched = 0;
        for (int round = 0; round < rounds; round++) {
            for (BindingKey key : keys) {
                for (String routingKey : routingKeys) {
                    matched += key.matches(routingKey) ? 1 : 0;
                }
            }
        }
        return matched;
    }

    private static String randomPattern(Random random, int words) {
        String[] choices = {"a", "b", "*", "#", "#", "*"};
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < words; i++) {
            parts.add(choices[random.nextInt(choices.length)]);
        }
        return String.join(".", parts);
    }

    private static String randomRoutingKey(Random random, int words) {
        String[] choices = {"a", "b", "c", ""};
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < words; i++) {
            parts.add(choices[random.nextInt(choices.length)]);
        }
        return words == 0 ? "" : String.join(".", parts);
    }

    /** Every routing key of at most {@code words} words of a, b and z, a word that no pattern has. */
    private static List<String> allRoutingKeys(int words) {
        List<String> keys = new ArrayList<>(List.of(""));
        List<String> previous = List.of("");
        for (int length = 1; length <= words; length++) {
            List<String> next = new ArrayList<>();
            for (String prefix : previous) {
                for (String word : List.of("a", "b", "z")) {
                    next.add(length == 1 ? word : prefix + "." + word);
                }
            }
            keys.addAll(next);
            previous = next;
        }
        return keys;
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
