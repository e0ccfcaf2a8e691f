package io.github.retrytopology.spring;

import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.ResourceLoader;

/**
 * The AMQP 1.0 spec of the tests ({@code src/test/resources/specs/amqp10.yml}, service payments), which an application
 * sees only through {@link #resourceLoader()}: its generated code is compiled with the tests, but the resource by
 * which the starter finds a spec is kept off the tests' class path (see the pom), so that the other tests, on
 * RabbitMQ 3.10 too, consume only retry.yml's services.
 */
final class Amqp10Spec {

    /** Where the plugin writes the spec's resources, among them {@code META-INF/retry-topology/...properties}. */
    static final Path RESOURCES = Path.of("target/generated-test-resources/retry-amqp10");

    private static final ClassLoader LOADER = loader(Amqp10Spec.class.getClassLoader());

    private Amqp10Spec() {
    }

    /** A resource loader whose class loader sees the tests' class path and the AMQP 1.0 spec. */
    static ResourceLoader resourceLoader() {
        return new DefaultResourceLoader(LOADER);
    }

    /** A class loader that sees what {@code parent} sees, and the AMQP 1.0 spec. */
    static ClassLoader loader(ClassLoader parent) {
        if (!Files.isDirectory(RESOURCES.resolve("META-INF/retry-topology"))) {
            throw new IllegalStateException(RESOURCES.toAbsolutePath() + " holds no generated spec: build the tests "
                    + "with Maven, whose generate-test-sources phase writes it");
        }
        try {
            return new URLClassLoader(new URL[] {RESOURCES.toUri().toURL()}, parent);
        } catch (MalformedURLException e) {
            throw new UncheckedIOException(e);
        }
    }
}
