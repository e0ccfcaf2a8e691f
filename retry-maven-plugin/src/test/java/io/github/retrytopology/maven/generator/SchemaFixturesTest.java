package io.github.retrytopology.maven.generator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.regex.JDKRegularExpressionFactory;
import com.networknt.schema.regex.JoniRegularExpressionFactory;
import com.networknt.schema.regex.RegularExpressionFactory;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.problem.InvalidSpecException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JSON Schema of {@code retry.yml} against every spec fixture of the model, through networknt's validator,
 * with the regular expressions of ECMAScript (as the YAML language server's JavaScript reads them) and of Java (as
 * IntelliJ's): every valid spec passes, and every structurally invalid one (a wrong type, an unknown or missing
 * key, a value not among a key's values, a value of the wrong pattern or beyond a limit) is refused. The YAML is
 * read by Jackson, which reports a key set twice, as editors do.
 *
 * <p>What a schema cannot state is listed below with why: the YAML parser refuses some files before any schema
 * applies, and some rules only the build's reader and validator can check. The lists are exact both ways: a
 * fixture listed as the validator's must pass the schema, so that a schema grown stronger moves it out.
 */
class SchemaFixturesTest {

    private static final Path SPECS = Path.of("../retry-model/src/test/resources/specs");

    /** Refused by the YAML parser that reads the file, before any schema applies. */
    private static final Map<String, String> PARSER_REFUSES = Map.of(
            "not-utf8.yml", "the file is not UTF-8",
            "not-utf8-cr-line-ends.yml", "the file is not UTF-8",
            "yaml-syntax.yml", "not YAML",
            "yaml-syntax-cr-line-ends.yml", "not YAML",
            "yaml-syntax-line-separator.yml", "not YAML",
            "yaml-syntax-truncated-escape.yml", "not YAML",
            "duplicate-key.yml", "a key set twice in one mapping, which a JSON document cannot hold",
            "duplicate-service.yml", "a service declared twice: a key set twice");

    /** What only the build's reader and validator can tell; the schema lets these through. */
    private static final Map<String, String> ONLY_THE_VALIDATOR = Map.ofEntries(
            Map.entry("bad-character.yml", "a lone surrogate is no character, but JSON strings hold them"),
            Map.entry("multiple-documents.yml", "an editor checks each document of a file on its own"),
            Map.entry("bad-package-jdk-module.yml", "which packages the JDK's modules hold"),
            Map.entry("delay-too-long.yml", "a duration's length, across units"),
            Map.entry("delay-too-long-backoff.yml", "arithmetic across initial, multiplier and maxAttempts"),
            Map.entry("too-many-tiers.yml", "arithmetic across backoff and maxAttempts"),
            Map.entry("broker-delay.yml", "arithmetic across delays and maxAttempts"),
            Map.entry("broker-delay-classic.yml", "delayBy and queueType together, each the service's or inherited"),
            Map.entry("amqp10-delay.yml", "protocol and delayBy together, each the service's or inherited"),
            Map.entry("amqp10-delay-defaults.yml", "protocol and delayBy together, each the service's or inherited"),
            Map.entry("amqp10-delay-classic.yml", "protocol and queueType together, each the service's or inherited"),
            Map.entry("amqp10-delay-broker-classic.yml", "protocol and queueType together, each the service's or "
                    + "inherited"),
            Map.entry("amqp10-delay-tier-queues-classic.yml", "protocol, delayBy and queueType together, each the "
                    + "service's or inherited"),
            Map.entry("too-many-queues.yml", "a count across services and their tiers"),
            Map.entry("duplicate-handler.yml", "a name derived from the keys' words, across entries"),
            Map.entry("shadowed-routing-key.yml", "topic matching across entries"),
            Map.entry("name-collision.yml", "Java names derived from service names, across services"),
            Map.entry("name-collision-case.yml", "Java names derived from service names, across services"),
            Map.entry("name-collision-constant.yml", "the constants of the generated class, derived"),
            Map.entry("name-collision-topology.yml", "the name of the generated class, derived"),
            Map.entry("name-collision-payload.yml", "package and class names across entries"),
            Map.entry("name-too-long-class-file.yml", "a generated file's name in bytes, derived"),
            Map.entry("name-collision-queue-own.yml", "a kept queue against the names its service derives"),
            Map.entry("name-collision-queue-tier.yml", "a kept queue against the names other services derive"),
            Map.entry("name-collision-queue-parking-lot.yml", "a kept queue against the names other services derive"),
            Map.entry("name-collision-queue-service-name.yml", "a kept queue against the names other services derive"),
            Map.entry("name-collision-queue-migrating.yml", "kept queues across services"),
            Map.entry("name-collision-queue-service.yml", "kept queues across services"),
            Map.entry("kubernetes-name-collision.yml", "Kubernetes names derived from queue names, across services"),
            Map.entry("kubernetes-name-collision-binding.yml", "Kubernetes names derived from routing keys, across entries"));

    private static final YAMLMapper YAML = YAMLMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    /** The regular expressions a validator runs the schema's patterns with. */
    enum Engine {
        ECMASCRIPT(JoniRegularExpressionFactory.getInstance()),
        JAVA(JDKRegularExpressionFactory.getInstance());

        private final Schema schema;

        Engine(RegularExpressionFactory regularExpressions) {
            SchemaRegistryConfig config = SchemaRegistryConfig.builder()
                    .regularExpressionFactory(regularExpressions)
                    .build();
            schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7,
                    registry -> registry.schemaRegistryConfig(config)).getSchema(SchemaJson.text());
        }

        List<Error> validate(JsonNode spec) {
            return schema.validate(spec);
        }
    }

    @ParameterizedTest(name = "{0} ({1})")
    @MethodSource("validFixtures")
    void everyValidSpecPasses(String fixture, Engine engine) throws IOException {
        JsonNode spec = YAML.readTree(Files.readAllBytes(SPECS.resolve("valid").resolve(fixture)));

        assertThat(engine.validate(spec)).isEmpty();
    }

    @ParameterizedTest(name = "{0} ({1})")
    @MethodSource("invalidFixtures")
    void everyStructurallyInvalidSpecIsRefused(String fixture, Engine engine) throws IOException {
        byte[] bytes = Files.readAllBytes(SPECS.resolve("invalid").resolve(fixture));

        if (PARSER_REFUSES.containsKey(fixture)) {
            assertThatThrownBy(() -> YAML.readTree(bytes)).as(PARSER_REFUSES.get(fixture)).isInstanceOf(IOException.class);
        } else if (ONLY_THE_VALIDATOR.containsKey(fixture)) {
            assertThat(engine.validate(YAML.readTree(bytes)))
                    .as("the schema cannot tell %s, so it lets the spec through", ONLY_THE_VALIDATOR.get(fixture))
                    .isEmpty();
        } else {
            assertThat(engine.validate(YAML.readTree(bytes))).as("problems the schema finds").isNotEmpty();
        }
    }

    @Test
    void listsOnlyFixturesThatExist() throws IOException {
        List<String> invalid = fixtures("invalid").toList();

        assertThat(invalid).containsAll(PARSER_REFUSES.keySet()).containsAll(ONLY_THE_VALIDATOR.keySet());
        assertThat(PARSER_REFUSES.keySet()).doesNotContainAnyElementsOf(ONLY_THE_VALIDATOR.keySet());
        assertThat(invalid.size() - PARSER_REFUSES.size() - ONLY_THE_VALIDATOR.size())
                .as("structurally invalid fixtures").isGreaterThan(40);
    }

    /** The reader takes a number as text, which never starts with amq., as a name: the schema takes it too. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Engine.class)
    void takesANumberAsAnExchangeOrAQueueAndRefusesAReservedName(Engine engine) throws IOException {
        String numbers = "version: 1\npackage: com.acme.retry\nexchange: 10\nservices:\n"
                + "  ucenter-user: {queue: 123, routingKeys: [user.created], maxAttempts: 1}\n";
        String reserved = numbers.replace("exchange: 10", "exchange: amq.topic").replace("queue: 123", "queue: amq.x");

        assertThat(Specs.parse(numbers.getBytes(StandardCharsets.UTF_8), "retry.yml").service("ucenter-user").queue())
                .isEqualTo("123");
        assertThat(engine.validate(YAML.readTree(numbers))).isEmpty();
        assertThat(engine.validate(YAML.readTree(reserved))).extracting(Error::getInstanceLocation)
                .extracting(Object::toString).containsExactlyInAnyOrder("/exchange", "/services/ucenter-user/queue");
    }

    /**
     * The schema never refuses what the build accepts, over specs made at random that use every corner of the
     * spec language (non-ASCII names, the longest delays, flow and block style), and mutations of them.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Engine.class)
    void neverRefusesASpecTheBuildAccepts(Engine engine) {
        RandomSpecs specs = new RandomSpecs(20_261_113L);
        List<String> refused = new ArrayList<>();
        int accepted = 0;
        for (int index = 0; index < 1_000; index++) {
            byte[] bytes = specs.next(index);
            try {
                Specs.parse(bytes, "retry.yml");
            } catch (InvalidSpecException refusedByTheBuild) {
                continue;
            }
            accepted++;
            try {
                List<Error> errors = engine.validate(YAML.readTree(bytes));
                if (!errors.isEmpty()) {
                    refused.add("spec " + index + ": " + errors + "\n" + new String(bytes, StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                refused.add("spec " + index + ": Jackson cannot read it: " + e.getMessage());
            }
        }

        assertThat(accepted).isGreaterThan(100);
        assertThat(refused).isEmpty();
    }

    static Stream<Arguments> validFixtures() throws IOException {
        return withEngines(fixtures("valid"));
    }

    static Stream<Arguments> invalidFixtures() throws IOException {
        return withEngines(fixtures("invalid"));
    }

    private static Stream<Arguments> withEngines(Stream<String> fixtures) {
        return fixtures.flatMap(fixture -> Stream.of(Engine.values()).map(engine -> Arguments.of(fixture, engine)));
    }

    private static Stream<String> fixtures(String kind) throws IOException {
        try (Stream<Path> files = Files.list(SPECS.resolve(kind))) {
            return files.map(file -> file.getFileName().toString()).filter(name -> name.endsWith(".yml")).sorted()
                    .toList().stream();
        }
    }
}
