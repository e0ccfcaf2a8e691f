package io.github.retrytopology.maven.generator;

import io.github.retrytopology.model.RetrySpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * A digest of the code that decides what is generated: the generator's classes and templates, and the model's
 * classes, each as the jar or directory they were loaded from. A rebuilt plugin of the same version, with a
 * changed template, thus regenerates; it is computed once per class loader.
 */
final class CodeDigest {

    /** The digest of the generator's and the model's code. */
    static final String OF_GENERATOR = of(List.of(Generator.class, RetrySpec.class));

    private CodeDigest() {
    }

    static String of(List<Class<?>> classes) {
        MessageDigest digest = sha256();
        for (Class<?> type : classes) {
            Path location = location(type);
            try {
                if (location == null) {
                    templates(digest);
                } else {
                    update(digest, location);
                }
            } catch (UncheckedIOException unreadable) {
                // Then the code is known by the plugin's version alone, as it was before this digest.
                digest.update(type.getName().getBytes(StandardCharsets.UTF_8));
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /** Every file of a jar or directory, names and bytes, in a stable order. */
    static void update(MessageDigest digest, Path location) {
        try {
            if (Files.isRegularFile(location)) {
                digest.update(Files.readAllBytes(location));
                return;
            }
            try (Stream<Path> files = Files.walk(location)) {
                for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                    String name = location.relativize(file).toString().replace('\\', '/');
                    digest.update(name.getBytes(StandardCharsets.UTF_8));
                    digest.update((byte) 0);
                    digest.update(Files.readAllBytes(file));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the generator's code at " + location, e);
        }
    }

    /** Where a class was loaded from, if that is a file or directory. */
    private static Path location(Class<?> type) {
        CodeSource source = type.getProtectionDomain().getCodeSource();
        try {
            Path path = source == null || source.getLocation() == null ? null : Path.of(source.getLocation().toURI());
            return path != null && Files.exists(path) ? path : null;
        } catch (URISyntaxException | IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
            return null;
        }
    }

    /** The templates alone, when the code's location cannot be read. */
    private static void templates(MessageDigest digest) {
        for (String template : List.of(TopologySource.TEMPLATE, HandlerSource.TEMPLATE, DefinitionsJson.TEMPLATE,
                TopologyDiagram.TEMPLATE, TopologyResource.TEMPLATE, KubernetesResources.TEMPLATE)) {
            try (InputStream in = CodeDigest.class.getResourceAsStream(template)) {
                if (in != null) {
                    digest.update(in.readAllBytes());
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read template " + template, e);
            }
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
