package io.github.retrytopology.maven.generator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.retrytopology.maven.output.GeneratedOutput;
import io.github.retrytopology.model.problem.InvalidSpecException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Generation is deterministic and incremental, and never leaves half an output behind. */
class GeneratorTest {

    private static final String TWO_SERVICES = """
            version: 1
            package: com.acme.shop
            exchange: shop.events
            defaults: {maxAttempts: 3, delays: [1s, 5s]}
            services:
              invoicing:
                routingKeys: [order.placed]
              warehouse:
                routingKeys: [order.placed]
            """;

    @TempDir
    Path project;

    private Path spec;
    private GenerationRequest request;
    private final Generator generator = new Generator();

    @BeforeEach
    void writeSpec() throws IOException {
        spec = project.resolve("retry.yml");
        Files.writeString(spec, TWO_SERVICES);
        request = new GenerationRequest(spec, project.resolve("target/java"), project.resolve("target/resources"), "1.0");
    }

    @Test
    void writesEveryFileOnTheFirstRun() throws IOException {
        GenerationResult result = generator.generate(request);

        assertThat(result.upToDate()).isFalse();
        assertThat(result.written()).extracting(path -> path.getFileName().toString()).containsExactlyInAnyOrder(
                "RetryTopology.java", "InvoicingHandler.java", "WarehouseHandler.java",
                "definitions.json", "definitions.vhost.json", "topology.md", "retry.schema.json",
                "com.acme.shop.properties");
        assertThat(request.javaOutput().resolve(GeneratedOutput.STAMP)).isRegularFile();
    }

    @Test
    void doesNothingWhenNothingChanged() throws IOException {
        generator.generate(request);
        Map<Path, FileTime> before = modificationTimes();

        GenerationResult again = generator.generate(request);

        assertThat(again.upToDate()).isTrue();
        assertThat(modificationTimes()).isEqualTo(before);
    }

    @Test
    void rewritesOnlyTheFilesWhoseBytesChange() throws IOException {
        generator.generate(request);
        Map<Path, FileTime> before = ageEveryFile();

        Files.writeString(spec, TWO_SERVICES.replace("invoicing:\n    routingKeys: [order.placed]",
                "invoicing:\n    routingKeys: [order.placed, order.cancelled]"));
        GenerationResult result = generator.generate(request);

        assertThat(result.written()).extracting(path -> path.getFileName().toString()).containsExactlyInAnyOrder(
                "RetryTopology.java", "InvoicingHandler.java", "definitions.json", "definitions.vhost.json", "topology.md");
        Path untouched = result.unchanged().get(0);
        assertThat(untouched.getFileName()).hasToString("WarehouseHandler.java");
        assertThat(Files.getLastModifiedTime(untouched)).isEqualTo(before.get(untouched));
    }

    @Test
    void writesTheKubernetesResourcesOnlyWhileAskedAndRegeneratesWhenTheirSettingsChange() throws IOException {
        generator.generate(request);

        GenerationResult asked = generator.generate(kubernetes(""));
        GenerationResult again = generator.generate(kubernetes(""));
        GenerationResult prefixed = generator.generate(kubernetes("shop-"));
        GenerationResult dropped = generator.generate(request);

        Path resources = request.resourceOutput().resolve("com/acme/shop/kubernetes.yaml");
        assertThat(asked.written()).containsExactly(resources);
        assertThat(again.upToDate()).isTrue();
        assertThat(prefixed.written()).containsExactly(resources);
        assertThat(dropped.deleted()).containsExactly(resources);
        assertThat(resources).doesNotExist();
    }

    @Test
    void aRefusedKubernetesOutputLeavesTheOutputAndItsStampAsTheyWere() throws IOException {
        generator.generate(request);
        Map<Path, byte[]> before = contents();
        byte[] stamp = Files.readAllBytes(request.javaOutput().resolve(GeneratedOutput.STAMP));
        KubernetesOutput vhostOfSlash = new KubernetesOutput(KubernetesResourcesTest.EXAMPLE.cluster(), "",
                Optional.empty(), Map.of(), "retain", true, Optional.empty());

        assertThatThrownBy(() -> generator.generate(new GenerationRequest(spec, request.javaOutput(),
                request.resourceOutput(), "1.0", Optional.of(vhostOfSlash))))
                .isInstanceOf(GenerationException.class).hasMessageContaining("kubernetesVhost");
        assertThat(contents().keySet()).isEqualTo(before.keySet());
        before.forEach((path, bytes) -> assertThat(path).hasBinaryContent(bytes));
        assertThat(request.javaOutput().resolve(GeneratedOutput.STAMP)).hasBinaryContent(stamp);
    }

    private GenerationRequest kubernetes(String prefix) {
        KubernetesOutput output = new KubernetesOutput(KubernetesResourcesTest.EXAMPLE.cluster(), prefix,
                Optional.empty(), Map.of(), "retain", false, Optional.empty());
        return new GenerationRequest(spec, request.javaOutput(), request.resourceOutput(), "1.0", Optional.of(output));
    }

    @Test
    void deletesTheFilesOfARemovedService() throws IOException {
        generator.generate(request);

        Files.writeString(spec, TWO_SERVICES.replace("  warehouse:\n    routingKeys: [order.placed]\n", ""));
        GenerationResult result = generator.generate(request);

        assertThat(result.deleted()).extracting(path -> path.getFileName().toString())
                .containsExactly("WarehouseHandler.java");
        assertThat(files()).noneMatch(path -> path.endsWith("WarehouseHandler.java"));
    }

    @Test
    void generatesAgainWhenAFileWasDeletedOrThePluginChanged() throws IOException {
        generator.generate(request);
        Path handler = request.javaOutput().resolve("com/acme/shop/InvoicingHandler.java");
        Files.delete(handler);

        assertThat(generator.generate(request).written()).containsExactly(handler);
        GenerationRequest newerPlugin = new GenerationRequest(spec, request.javaOutput(), request.resourceOutput(), "1.1");
        assertThat(generator.generate(newerPlugin).upToDate()).isFalse();
    }

    @Test
    void producesTheSameBytesEveryTime() throws IOException {
        generator.generate(request);
        Map<Path, byte[]> first = contents();
        deleteOutput();

        generator.generate(request);

        Map<Path, byte[]> second = contents();
        assertThat(second.keySet()).isEqualTo(first.keySet());
        first.forEach((path, bytes) -> assertThat(second.get(path)).as("%s", path).isEqualTo(bytes));
        first.forEach((path, bytes) -> {
            String text = new String(bytes, StandardCharsets.UTF_8);
            assertThat(text).as("%s", path).doesNotContain("\r").endsWith("\n").doesNotContainPattern("20\\d\\d-\\d\\d-\\d\\d");
        });
    }

    @Test
    void anInvalidSpecLeavesTheOutputAndItsStampAsTheyWere() throws IOException {
        generator.generate(request);
        Map<Path, byte[]> before = contents();
        byte[] stamp = Files.readAllBytes(request.javaOutput().resolve(GeneratedOutput.STAMP));

        Files.writeString(spec, TWO_SERVICES.replace("maxAttempts: 3", "maxAttempts: 0"));

        assertThatThrownBy(() -> generator.generate(request)).isInstanceOf(InvalidSpecException.class)
                .hasMessageContaining("[bad-max-attempts]");
        assertThat(contents().keySet()).isEqualTo(before.keySet());
        assertThat(request.javaOutput().resolve(GeneratedOutput.STAMP)).hasBinaryContent(stamp);
    }

    @Test
    void deletesTheFilesOfAServiceRemovedAfterAFailedRun() throws IOException {
        generator.generate(request);
        Files.writeString(spec, TWO_SERVICES.replace("maxAttempts: 3", "maxAttempts: 0"));
        assertThatThrownBy(() -> generator.generate(request)).isInstanceOf(InvalidSpecException.class);

        Files.writeString(spec, TWO_SERVICES.replace("  warehouse:\n    routingKeys: [order.placed]\n", ""));
        GenerationResult result = generator.generate(request);

        assertThat(result.deleted()).extracting(path -> path.getFileName().toString())
                .containsExactly("WarehouseHandler.java");
    }

    @Test
    void finishesAnInterruptedWriteOnTheNextRun() throws IOException {
        generator.generate(request);
        Path definitions = request.resourceOutput().resolve("com/acme/shop/definitions.json");
        Files.delete(definitions);
        Files.createDirectories(definitions.resolve("in-the-way"));
        Files.writeString(spec, TWO_SERVICES.replace("  warehouse:\n    routingKeys: [order.placed]\n", ""));

        assertThatThrownBy(() -> generator.generate(request)).isInstanceOf(IOException.class);
        Files.delete(definitions.resolve("in-the-way"));
        Files.delete(definitions);
        GenerationResult result = generator.generate(request);

        assertThat(result.deleted()).extracting(path -> path.getFileName().toString())
                .containsExactly("WarehouseHandler.java");
        assertThat(definitions).isRegularFile();
        assertThat(generator.generate(request).upToDate()).isTrue();
    }

    @Test
    void neverTouchesTheFilesOfTheProjectItWasCopiedFrom(@TempDir Path elsewhere) throws IOException {
        generator.generate(request);
        Map<Path, byte[]> original = contents();
        Path copy = elsewhere.resolve("copy");
        copyTree(project, copy);
        GenerationRequest copied = new GenerationRequest(copy.resolve("retry.yml"), copy.resolve("target/java"),
                copy.resolve("target/resources"), "1.0");

        assertThat(generator.generate(copied).upToDate()).as("a copy is as up to date as its original").isTrue();
        Files.writeString(copied.spec(), TWO_SERVICES.replace("  warehouse:\n    routingKeys: [order.placed]\n", ""));
        GenerationResult result = generator.generate(copied);

        assertThat(result.deleted()).containsExactly(copied.javaOutput().resolve("com/acme/shop/WarehouseHandler.java"));
        assertThat(contents()).containsOnlyKeys(original.keySet());
    }

    @Test
    void ignoresStampEntriesThatLeadOutsideTheOutput() throws IOException {
        generator.generate(request);
        Path outside = Files.writeString(project.resolve("outside.txt"), "keep me");
        Path stamp = request.javaOutput().resolve(GeneratedOutput.STAMP);
        Files.writeString(stamp, Files.readString(stamp) + "file java ../../outside.txt\nfile resources " + outside
                + "\nfile nowhere outside.txt\nfile java " + GeneratedOutput.STAMP + "\n");
        Files.writeString(spec, TWO_SERVICES.replace("maxAttempts: 3", "maxAttempts: 4"));

        generator.generate(request);

        assertThat(outside).hasContent("keep me");
        assertThat(stamp).isRegularFile();
    }

    @Test
    void generatesAgainWhenTheGeneratorsCodeChanged() throws IOException {
        new Generator("code before").generate(request);

        assertThat(new Generator("code before").generate(request).upToDate()).isTrue();
        assertThat(new Generator("code after").generate(request).upToDate()).isFalse();
    }

    @Test
    void theCodeDigestCoversTheTemplates(@TempDir Path code) throws IOException {
        Path template = code.resolve("io/github/retrytopology/maven/generator/" + TopologySource.TEMPLATE);
        Files.createDirectories(template.getParent());
        Files.writeString(template, "<#-- before -->");
        MessageDigest before = sha256();
        CodeDigest.update(before, code);

        Files.writeString(template, "<#-- after -->");
        MessageDigest after = sha256();
        CodeDigest.update(after, code);

        assertThat(after.digest()).isNotEqualTo(before.digest());
    }

    @Test
    void aRewrittenFileGetsThePermissionsOfANewFile() throws IOException {
        assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
        generator.generate(request);
        Path definitions = request.resourceOutput().resolve("com/acme/shop/definitions.json");
        Set<PosixFilePermission> newFile = Files.getPosixFilePermissions(definitions);

        Files.writeString(spec, TWO_SERVICES.replace("maxAttempts: 3", "maxAttempts: 4"));
        GenerationResult result = generator.generate(request);

        assertThat(result.written()).contains(definitions);
        assertThat(Files.getPosixFilePermissions(definitions)).isEqualTo(newFile);
    }

    @Test
    void anInvalidSpecOnAFreshProjectWritesNothing() throws IOException {
        Files.writeString(spec, "version: 1\nservices: {}\n");

        assertThatThrownBy(() -> generator.generate(request)).isInstanceOf(InvalidSpecException.class);

        assertThat(request.javaOutput()).doesNotExist();
        assertThat(request.resourceOutput()).doesNotExist();
    }

    private Map<Path, FileTime> modificationTimes() throws IOException {
        Map<Path, FileTime> times = new HashMap<>();
        for (Path path : files()) {
            times.put(path, Files.getLastModifiedTime(path));
        }
        return times;
    }

    /** Sets every file's time an hour back, so that a rewrite shows even within the file system's resolution. */
    private Map<Path, FileTime> ageEveryFile() throws IOException {
        FileTime past = FileTime.fromMillis(System.currentTimeMillis() - 3_600_000);
        for (Path path : files()) {
            Files.setLastModifiedTime(path, past);
        }
        return modificationTimes();
    }

    private Map<Path, byte[]> contents() throws IOException {
        Map<Path, byte[]> contents = new HashMap<>();
        for (Path path : files()) {
            if (!path.endsWith(GeneratedOutput.STAMP)) {
                contents.put(path, Files.readAllBytes(path));
            }
        }
        return contents;
    }

    private List<Path> files() throws IOException {
        try (Stream<Path> walk = Files.walk(project.resolve("target"))) {
            return walk.filter(Files::isRegularFile).toList();
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path path : walk.toList()) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private void deleteOutput() throws IOException {
        try (Stream<Path> walk = Files.walk(project.resolve("target"))) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }
}
