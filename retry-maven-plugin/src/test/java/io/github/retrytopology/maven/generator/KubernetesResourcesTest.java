package io.github.retrytopology.maven.generator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.github.retrytopology.maven.generator.KubernetesOutput.ClusterReference;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.topology.Binding;
import io.github.retrytopology.model.topology.KubernetesNames;
import io.github.retrytopology.model.topology.Policy;
import io.github.retrytopology.model.topology.Queue;
import io.github.retrytopology.model.topology.Topology;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The messaging-topology-operator's resources: the bundled example's compared whole with its golden file, every
 * valid spec's checked against the operator's own CRD schemas (v1.20.1, under {@code src/test/resources/kubernetes}),
 * and the parameters refused with the parameter named. No Kubernetes cluster runs here: the schemas are what the
 * API server would check, and the resource names are checked as it checks them.
 */
class KubernetesResourcesTest {

    private static final Path BUNDLED_EXAMPLE = Path.of("../it/retry.yml");
    private static final Path GOLDEN = Path.of("src/test/resources/golden/kubernetes/order-platform.yaml");
    private static final Path VALID_SPECS = Path.of("../retry-model/src/test/resources/specs/valid");
    private static final Path CRD_SCHEMAS = Path.of("src/test/resources/kubernetes/crd-schemas");
    private static final Path JAVA = Path.of("/generated/java");
    private static final Path RESOURCES = Path.of("/generated/resources");

    private static final YAMLMapper YAML = new YAMLMapper();

    /** The bundled example's options: every part of the output, so that the golden file shows them all. */
    static final KubernetesOutput EXAMPLE = new KubernetesOutput(
            new ClusterReference(Optional.of("rabbitmq"), Optional.of("rabbitmq-system"), Optional.empty()), "orders-",
            Optional.of("orders"), Map.of("app.kubernetes.io/part-of", "order-platform"), "retain", true,
            Optional.of("order-platform"));

    private static final KubernetesOutput BY_SECRET = new KubernetesOutput(
            new ClusterReference(Optional.empty(), Optional.empty(), Optional.of("rabbitmq-admin")), "",
            Optional.empty(), Map.of(), "delete", false, Optional.empty());

    @Test
    void bundledExampleMatchesItsGoldenFile() throws IOException {
        String rendered = kubernetesYaml(Files.readString(BUNDLED_EXAMPLE), "retry.yml", EXAMPLE);

        if (Boolean.getBoolean("golden.update")) {
            Files.createDirectories(GOLDEN.getParent());
            Files.writeString(GOLDEN, rendered, StandardCharsets.UTF_8);
        }

        assertThat(rendered).isEqualTo(Files.readString(GOLDEN, StandardCharsets.UTF_8));
    }

    @ParameterizedTest(name = "{0}, {2}")
    @MethodSource("specsAndOptions")
    void everyResourceValidatesAgainstTheOperatorsCrdSchema(String name, String spec, String options,
            KubernetesOutput output) throws IOException {
        List<JsonNode> documents = documents(kubernetesYaml(spec, name, output));

        assertThat(documents).isNotEmpty();
        for (JsonNode document : documents) {
            String kind = document.path("kind").asText();
            String resource = document.path("metadata").path("name").asText();
            assertThat(document.path("apiVersion").asText()).isEqualTo("rabbitmq.com/v1beta1");
            assertThat(crdSchema(kind).validate(document)).as("%s %s", kind, resource).isEmpty();
            assertThat(KubernetesNames.isName(resource)).as("%s %s is a DNS-1123 subdomain", kind, resource).isTrue();
            assertThat(resource).startsWith(output.namePrefix());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validSpecs")
    void writesTheObjectsOfTheDefinitionsAndNoOther(String name, String text) throws IOException {
        RetrySpec spec = Specs.parse(text.getBytes(StandardCharsets.UTF_8), name);
        Topology topology = Topology.of(spec);
        List<JsonNode> documents = documents(kubernetesYaml(text, name, BY_SECRET));

        assertThat(names(documents, "Queue")).containsExactlyElementsOf(topology.queues().stream().map(Queue::name).toList());
        assertThat(names(documents, "Policy")).containsExactlyElementsOf(topology.policies().stream().map(Policy::name).toList());
        assertThat(documents).filteredOn(document -> document.path("kind").asText().equals("Binding"))
                .extracting(document -> document.path("spec").path("routingKey").asText() + " -> "
                        + document.path("spec").path("destination").asText())
                .containsExactlyElementsOf(topology.bindings().stream()
                        .map((Binding binding) -> binding.routingKey() + " -> " + binding.queue()).toList());
        assertThat(names(documents, "Exchange")).containsExactly(spec.exchange());
        assertThat(documents).extracting(document -> document.path("kind").asText())
                .isSubsetOf("Exchange", "Queue", "Policy", "Binding");
        assertThat(documents).filteredOn(document -> document.path("kind").asText().equals("Queue"))
                .allSatisfy(queue -> assertThat(queue.path("spec").path("arguments").has("x-queue-type"))
                        .as("the type is the Queue's own field, which the operator reads").isFalse());
    }

    static Stream<Arguments> badParameters() {
        ClusterReference byName = new ClusterReference(Optional.of("rabbitmq"), Optional.empty(), Optional.empty());
        return Stream.of(
                Arguments.of("an upper-case prefix", output(byName, "Orders_", Optional.empty(), Map.of(), "retain"),
                        "kubernetesNamePrefix 'Orders_'"),
                Arguments.of("a prefix starting with a hyphen", output(byName, "-orders", Optional.empty(), Map.of(),
                        "retain"), "kubernetesNamePrefix '-orders'"),
                Arguments.of("a prefix too long", output(byName, "o".repeat(64), Optional.empty(), Map.of(), "retain"),
                        "kubernetesNamePrefix '" + "o".repeat(64) + "'"),
                Arguments.of("a namespace with a dot", output(byName, "", Optional.of("orders.prod"), Map.of(),
                        "retain"), "kubernetesNamespace 'orders.prod'"),
                Arguments.of("a label key with a space", output(byName, "", Optional.empty(), Map.of("part of", "x"),
                        "retain"), "kubernetesLabels key 'part of'"),
                Arguments.of("a label value too long", output(byName, "", Optional.empty(), Map.of("team",
                        "t".repeat(64)), "retain"), "kubernetesLabels value '" + "t".repeat(64) + "' of 'team'"),
                Arguments.of("an unknown deletion policy", output(byName, "", Optional.empty(), Map.of(), "keep"),
                        "kubernetesDeletionPolicy 'keep'"),
                Arguments.of("neither cluster nor secret", output(new ClusterReference(Optional.empty(),
                        Optional.empty(), Optional.empty()), "", Optional.empty(), Map.of(), "retain"),
                        "set kubernetesCluster (the name of the RabbitmqCluster) or kubernetesConnectionSecret"),
                Arguments.of("both cluster and secret", output(new ClusterReference(Optional.of("rabbitmq"),
                        Optional.empty(), Optional.of("admin")), "", Optional.empty(), Map.of(), "retain"),
                        "one of them"),
                Arguments.of("a cluster namespace with a secret", output(new ClusterReference(Optional.empty(),
                        Optional.of("rabbitmq-system"), Optional.of("admin")), "", Optional.empty(), Map.of(),
                        "retain"), "kubernetesClusterNamespace 'rabbitmq-system' goes with kubernetesCluster"),
                Arguments.of("a cluster name with an underscore", output(new ClusterReference(Optional.of("rabbit_mq"),
                        Optional.empty(), Optional.empty()), "", Optional.empty(), Map.of(), "retain"),
                        "kubernetesCluster 'rabbit_mq' is not a Kubernetes name"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badParameters")
    void refusesABadParameterNamingItAndItsValue(String bad, Runnable output, String message) {
        assertThatThrownBy(output::run).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("The Kubernetes output cannot be written: ")
                .hasMessageContaining(message);
    }

    @Test
    void listsEveryBadParameterAtOnce() {
        assertThatThrownBy(output(new ClusterReference(Optional.of("rabbitmq"), Optional.empty(), Optional.empty()),
                "Orders_", Optional.of("Orders"), Map.of(), "keep")::run)
                .hasMessageContainingAll("kubernetesNamePrefix 'Orders_'", "kubernetesNamespace 'Orders'",
                        "kubernetesDeletionPolicy 'keep'");
    }

    @Test
    void refusesAVhostResourceOfTheDefaultVirtualHost() {
        KubernetesOutput vhost = new KubernetesOutput(BY_SECRET.cluster(), "", Optional.empty(), Map.of(), "retain",
                true, Optional.empty());
        String spec = """
                version: 1
                package: com.acme.shop
                exchange: shop.events
                defaults: {maxAttempts: 1}
                services:
                  invoicing:
                    routingKeys: [order.placed]
                """;

        assertThatThrownBy(() -> kubernetesYaml(spec, "retry.yml", vhost)).isInstanceOf(GenerationException.class)
                .hasMessageContaining("kubernetesVhost asks for a Vhost resource, but the spec's virtual host is '/'");
    }

    static Stream<Arguments> specsAndOptions() throws IOException {
        List<Arguments> cases = new ArrayList<>();
        cases.add(Arguments.of("it/retry.yml", Files.readString(BUNDLED_EXAMPLE), "every resource, by cluster name",
                EXAMPLE));
        validSpecs().forEach(spec -> cases.add(Arguments.of(spec.get()[0], spec.get()[1], "by secret", BY_SECRET)));
        return cases.stream();
    }

    static Stream<Arguments> validSpecs() throws IOException {
        try (Stream<Path> files = Files.list(VALID_SPECS)) {
            List<Arguments> specs = new ArrayList<>();
            for (Path file : new TreeSet<>(files.toList())) {
                specs.add(Arguments.of(file.getFileName().toString(), Files.readString(file)));
            }
            return specs.stream();
        }
    }

    private static Runnable output(ClusterReference cluster, String prefix, Optional<String> namespace,
            Map<String, String> labels, String deletionPolicy) {
        return () -> new KubernetesOutput(cluster, prefix, namespace, labels, deletionPolicy, false, Optional.empty());
    }

    static String kubernetesYaml(String spec, String name, KubernetesOutput output) {
        GenerationRequest request = new GenerationRequest(Path.of(name), JAVA, RESOURCES, "test", Optional.of(output));
        List<GeneratedFile> files = new Generator().render(spec, request);
        return files.stream().filter(file -> file.path().getFileName().toString().equals(Resources.KUBERNETES))
                .map(file -> new String(file.content(), StandardCharsets.UTF_8))
                .reduce((one, two) -> {
                    throw new AssertionError("two " + Resources.KUBERNETES + " files");
                })
                .orElseThrow();
    }

    static List<JsonNode> documents(String yaml) throws IOException {
        List<JsonNode> documents = new ArrayList<>();
        try (var parser = YAML.createParser(yaml)) {
            Iterator<JsonNode> values = YAML.readValues(parser, JsonNode.class);
            values.forEachRemaining(document -> {
                if (document != null && !document.isNull() && !document.isMissingNode()) {
                    documents.add(document);
                }
            });
        }
        return documents;
    }

    private static List<String> names(List<JsonNode> documents, String kind) {
        return documents.stream().filter(document -> document.path("kind").asText().equals(kind))
                .map(document -> document.path("spec").path("name").asText()).toList();
    }

    /**
     * The openAPIV3Schema of a kind's CRD, with one change: the API server prunes a field its structural schema does
     * not know, so a misspelt field would vanish without an error; here it is one ({@code additionalProperties:
     * false} wherever the schema lists properties and keeps no unknown field).
     */
    private static Schema crdSchema(String kind) throws IOException {
        String file = switch (kind) {
            case "Queue" -> "queues.json";
            case "Exchange" -> "exchanges.json";
            case "Binding" -> "bindings.json";
            case "Policy" -> "policies.json";
            case "Vhost" -> "vhosts.json";
            case "Permission" -> "permissions.json";
            default -> throw new AssertionError("no CRD schema kept for kind " + kind);
        };
        JsonNode schema = new ObjectMapper().readTree(CRD_SCHEMAS.resolve(file).toFile());
        closeObjects(schema);
        return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4).getSchema(schema);
    }

    private static void closeObjects(JsonNode node) {
        if (node instanceof ObjectNode object) {
            if (object.has("properties") && !object.has("x-kubernetes-preserve-unknown-fields")) {
                object.put("additionalProperties", false);
            }
            object.properties().forEach(entry -> closeObjects(entry.getValue()));
        } else if (node.isArray()) {
            node.forEach(KubernetesResourcesTest::closeObjects);
        }
    }

    @Test
    void aMisspeltFieldIsRefusedBySchemaAsTheTestReadsIt() throws IOException {
        JsonNode queue = YAML.readTree("""
                apiVersion: rabbitmq.com/v1beta1
                kind: Queue
                metadata: {name: orders}
                spec: {name: orders, deletionpolicy: retain, rabbitmqClusterReference: {name: rabbitmq}}
                """);
        JsonNode wrongType = YAML.readTree("""
                apiVersion: rabbitmq.com/v1beta1
                kind: Queue
                metadata: {name: orders}
                spec: {name: orders, deletionPolicy: keep, durable: "yes", rabbitmqClusterReference: {name: rabbitmq}}
                """);

        assertThat(crdSchema("Queue").validate(queue)).extracting(Error::getMessage).singleElement().asString()
                .contains("deletionpolicy");
        assertThat(crdSchema("Queue").validate(wrongType)).hasSize(2);
    }
}
