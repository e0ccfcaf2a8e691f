package io.github.retrytopology.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.retrytopology.runtime.testing.TestVhost;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An application without RabbitMQ's AMQP 1.0 client, for real: each test runs a Boot application in a class loader
 * of its own that holds the tests' class path less {@code com.rabbitmq.client:amqp-client} 1.x (a filtering class
 * loader would still let the starter's own classes link against it). Its AMQP 0.9.1 services are consumed as before;
 * a service with {@code protocol: amqp-1.0} fails the start-up, naming the dependency, rather than with a
 * {@code NoClassDefFoundError}.
 */
class WithoutAmqp10ClientIT {

    @RegisterExtension
    static final TestVhost vhost = new TestVhost();

    private static final String AMQP10_CLIENT_PATH = "com/rabbitmq/client/amqp-client/";

    @Test
    void consumesTheAmqp091ServicesOfAnApplicationWithoutTheClient() throws Exception {
        try (URLClassLoader loader = withoutTheClient(List.of())) {
            assertThatThrownBy(() -> Class.forName("com.rabbitmq.client.amqp.Connection", false, loader))
                    .isInstanceOf(ClassNotFoundException.class);

            Object context = run(loader, TestApplication.brokerProperties(vhost));
            try {
                Object consumers = invoke(context, "getBean", new Class<?>[] {Class.class},
                        loader.loadClass(RetryConsumers.class.getName()));
                Object orders = loader.loadClass("io.github.retrytopology.spring.example.RetryTopology")
                        .getField("ORDERS").get(null);
                Object consumer = consumers.getClass().getMethod("consumer", orders.getClass())
                        .invoke(consumers, orders);
                assertThat(consumer.getClass().getName())
                        .isEqualTo("io.github.retrytopology.runtime.consumer.RetryingConsumer");
                assertThat(consumer.getClass().getMethod("isRunning").invoke(consumer)).isEqualTo(true);
            } finally {
                invoke(context, "close", new Class<?>[0]);
            }
        }
    }

    @Test
    void failsNamingTheDependencyWhereAServiceIsConsumedOverAmqp10() throws Exception {
        try (URLClassLoader loader = withoutTheClient(List.of(Amqp10Spec.RESOURCES.toUri().toURL()))) {
            List<String> properties = List.of("spring.rabbitmq.addresses=" + vhost.broker().amqpUri(vhost.name()),
                    "retry.services.orders.enabled=false", "retry.services.audit.enabled=false");

            Throwable failure = null;
            try {
                invoke(run(loader, properties), "close", new Class<?>[0]);
            } catch (InvocationTargetException e) {
                failure = e.getCause();
            }

            assertThat(failure).as("the start-up's failure").isNotNull();
            Throwable cause = failure;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            assertThat(cause.getClass().getName()).isEqualTo(RetryConfigurationException.class.getName());
            assertThat(cause.getMessage()).isEqualTo("service 'payments' has 'protocol: amqp-1.0' in retry.yml, "
                    + "and RabbitMQ's AMQP 1.0 client (com.rabbitmq.client.amqp.Connection) is not on the class path");
            Object action = cause.getClass().getMethod("action").invoke(cause);
            assertThat(action).asString().startsWith("Add com.rabbitmq.client:amqp-client");
        }
    }

    /** Runs TestApplication with the tests' handlers in this class loader, as its thread's context class loader. */
    private static Object run(ClassLoader loader, List<String> properties) throws Exception {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            Class<?> builderType = loader.loadClass("org.springframework.boot.builder.SpringApplicationBuilder");
            Object builder = builderType.getConstructor(Class[].class).newInstance((Object) new Class<?>[] {
                    loader.loadClass(TestApplication.class.getName()), loader.loadClass(Orders.class.getName()),
                    loader.loadClass(Payments.class.getName())});
            builderType.getMethod("properties", String[].class).invoke(builder,
                    (Object) properties.toArray(String[]::new));
            return builderType.getMethod("run", String[].class).invoke(builder, (Object) new String[0]);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    private static Object invoke(Object target, String method, Class<?>[] types, Object... arguments)
            throws Exception {
        return target.getClass().getMethod(method, types).invoke(target, arguments);
    }

    /**
     * The tests' class path, less the AMQP 1.0 client, and these URLs, over the platform class loader: nothing the
     * tests' own class loader holds is shared.
     */
    private static URLClassLoader withoutTheClient(List<URL> more) throws IOException {
        List<URL> urls = new ArrayList<>();
        for (URI entry : classPath()) {
            if (!entry.toString().contains(AMQP10_CLIENT_PATH)) {
                urls.add(entry.toURL());
            }
        }
        assertThat(urls).as("the tests' class path").hasSizeGreaterThan(10);
        urls.addAll(more);
        return new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
    }

    /** The tests' class path, with the entries of a manifest-only jar, as Maven's test plugins start the JVM. */
    private static List<URI> classPath() throws IOException {
        List<URI> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path path = Path.of(entry).toAbsolutePath();
            entries.add(path.toUri());
            if (path.toString().endsWith(".jar")) {
                try (JarFile jar = new JarFile(path.toFile())) {
                    Manifest manifest = jar.getManifest();
                    String classPath = manifest == null ? null : manifest.getMainAttributes().getValue("Class-Path");
                    if (classPath != null) {
                        for (String listed : classPath.trim().split("\\s+")) {
                            entries.add(path.toUri().resolve(listed));
                        }
                    }
                }
            }
        }
        assertThat(entries).as("the tests' class path")
                .anyMatch(entry -> entry.toString().contains(AMQP10_CLIENT_PATH));
        return entries;
    }
}
