package io.github.retrytopology.operations.adopt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.topology.BrokerVersion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each shape of hand-rolled retry topology, from the blog posts the project grew from (with their own names and
 * arguments), adopted from its definitions: the draft and its record compared whole with the golden files beside
 * the definitions under {@code src/test/resources/adopt}, and the draft read by the model's own loader. After a
 * deliberate change to the output, rewrite the golden files with {@code -Dgolden.update=true} and review the
 * difference.
 */
class AdopterTest {

    static final Path SHAPES = Path.of("src/test/resources/adopt");

    static Stream<Arguments> shapes() {
        return Stream.of(
                Arguments.of("000-per-message-ttl", Optional.empty(), AdoptOptions.defaults()),
                Arguments.of("001-sneakers", Optional.empty(), AdoptOptions.defaults().javaPackage("com.acme.worker")),
                Arguments.of("002-delay-per-level", Optional.of("push"), AdoptOptions.defaults()),
                Arguments.of("003-master-retry-failed", Optional.empty(), AdoptOptions.defaults()),
                Arguments.of("004-dead-letter-loop", Optional.of("service_a_vh"), AdoptOptions.defaults()),
                Arguments.of("005-delayed-message-exchange", Optional.empty(), AdoptOptions.defaults()),
                Arguments.of("005-delayed-message-exchange/on-4.3", Optional.empty(),
                        AdoptOptions.defaults().brokerVersion(BrokerVersion.parse("4.3.1"))),
                Arguments.of("006-policies", Optional.empty(), AdoptOptions.defaults()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void draftsTheSpecThatReplacesTheShape(String shape, Optional<String> vhost, AdoptOptions options) throws IOException {
        Path directory = SHAPES.resolve(shape);
        Path definitions = Files.exists(directory.resolve("definitions.json")) ? directory.resolve("definitions.json")
                : directory.resolveSibling("definitions.json");

        Adoption adoption = Adopter.adopt(Definitions.read(definitions, vhost), options);

        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(directory.resolve("retry.yml"), adoption.spec());
            Files.writeString(directory.resolve("retry.adoption.json"), AdoptionJson.write(adoption.record()));
        }
        assertThat(adoption.spec()).isEqualTo(Files.readString(directory.resolve("retry.yml")));
        assertThat(AdoptionJson.write(adoption.record()))
                .isEqualTo(Files.readString(directory.resolve("retry.adoption.json")));
        assertThat(adoption.clean()).as("%s", adoption.record().unmapped()).isTrue();
        assertThatCode(() -> Specs.parse(adoption.spec().getBytes(StandardCharsets.UTF_8), "retry.yml"))
                .doesNotThrowAnyException();
    }

    @Test
    void theBenchmarksVirtualHostOfFiveHundredQueuesIsUnderstoodWhole() throws IOException {
        byte[] file = AdoptBenchmark.definitions(AdoptBenchmark.SERVICES).getBytes(StandardCharsets.UTF_8);

        Adoption adoption = Adopter.adopt(Definitions.parse(file, "definitions.json", Optional.of("shop")),
                AdoptOptions.defaults());

        assertThat(adoption.clean()).as("%s %s", adoption.record().unmapped(), adoption.record().problems()).isTrue();
        assertThat(adoption.record().services()).hasSize(AdoptBenchmark.SERVICES)
                .allSatisfy(service -> assertThat(service.tiers()).hasSize(3));
        assertThat(adoption.record().queues()).hasSize(AdoptBenchmark.SERVICES * 5);
    }
}
