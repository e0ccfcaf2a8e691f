package io.github.retrytopology.runtime.consumer;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.Names;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * The code that the plugin generated from one {@code retry.yml}, found by name at run time, for frameworks that
 * find handlers by their type, such as the Spring Boot starter: the spec, each service's handler interface, and
 * the routes of its messages to an implementation.
 *
 * <p>For each spec the plugin writes a resource {@code META-INF/retry-topology/<package>.properties} whose
 * {@code topology} names the generated topology class. Everything else follows from the names that the
 * model derives: no code is generated per service for this, so a spec of thousands of services costs nothing.
 */
public final class GeneratedTopology {

    /** The static method of each handler interface that routes to an implementation. */
    private static final String ROUTES_METHOD = "routes";

    private final Class<?> topologyClass;
    private final RetrySpec spec;
    private final ClassLoader loader;

    private GeneratedTopology(Class<?> topologyClass, RetrySpec spec, ClassLoader loader) {
        this.topologyClass = topologyClass;
        this.spec = spec;
        this.loader = loader;
    }

    /**
     * Reads a resource of {@link Names#TOPOLOGY_RESOURCES} and loads the topology class it names.
     *
     * @throws IllegalStateException naming the resource, if it names no generated topology class
     */
    public static GeneratedTopology load(URL resource, ClassLoader loader) {
        Properties properties = new Properties();
        try (InputStream in = resource.openStream()) {
            properties.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("could not read " + resource + ": " + e.getMessage(), e);
        }
        String name = properties.getProperty(Names.TOPOLOGY_RESOURCE_KEY);
        if (name == null || name.isBlank()) {
            throw new IllegalStateException(resource + " names no topology class: it has no '"
                    + Names.TOPOLOGY_RESOURCE_KEY + "' key; generate it again with retry-maven-plugin");
        }
        try {
            return load(name.strip(), loader);
        } catch (IllegalStateException e) {
            throw new IllegalStateException(resource + ": " + e.getMessage(), e);
        }
    }

    /**
     * Loads a generated topology class by its name, such as {@code com.acme.media.retry.RetryTopology}.
     *
     * @throws IllegalStateException if the class is missing or is not a generated topology class
     */
    public static GeneratedTopology load(String topologyClass, ClassLoader loader) {
        requireNonNull(topologyClass, "topologyClass");
        requireNonNull(loader, "loader");
        Class<?> type = type(topologyClass, loader, "the topology class");
        try {
            Field field = type.getField(Names.SPEC_CONSTANT);
            if (!Modifier.isStatic(field.getModifiers()) || !(field.get(null) instanceof RetrySpec spec)) {
                throw new IllegalStateException(topologyClass + "." + Names.SPEC_CONSTANT
                        + " is not a RetrySpec constant");
            }
            return new GeneratedTopology(type, spec, loader);
        } catch (NoSuchFieldException | IllegalAccessException e) {
            throw new IllegalStateException(topologyClass + " is not a generated topology class: it has no public "
                    + Names.SPEC_CONSTANT + " constant", e);
        }
    }

    /** The spec, as the topology class holds it. */
    public RetrySpec spec() {
        return spec;
    }

    /** The generated topology class. */
    public Class<?> topologyClass() {
        return topologyClass;
    }

    /**
     * The generated handler interface of one of the spec's services.
     *
     * @throws IllegalStateException if it is not on the class path
     */
    public Class<?> handlerInterface(Service service) {
        Class<?> type = type(spec.handlerInterface(service), loader,
                "the handler interface of service " + service.name());
        if (!type.isInterface()) {
            throw new IllegalStateException(type.getName() + " is not the generated handler interface of service "
                    + service.name());
        }
        return type;
    }

    /**
     * The routes of a service's messages to {@code handler}, as its handler interface's {@code routes} method
     * builds them.
     *
     * @throws IllegalArgumentException if {@code handler} does not implement the service's handler interface
     */
    public Routes routes(Service service, Object handler) {
        Class<?> type = handlerInterface(service);
        if (!type.isInstance(handler)) {
            throw new IllegalArgumentException(handler.getClass().getName() + " does not implement "
                    + type.getName());
        }
        MethodHandle routes;
        try {
            routes = MethodHandles.publicLookup().findStatic(type, ROUTES_METHOD, MethodType.methodType(Routes.class,
                    type));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new IllegalStateException(type.getName() + " has no public static " + ROUTES_METHOD + "("
                    + type.getSimpleName() + "); generate it again with retry-maven-plugin", e);
        }
        try {
            return (Routes) routes.invoke(handler);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(type.getName() + "." + ROUTES_METHOD + " failed: " + e, e);
        }
    }

    private static Class<?> type(String name, ClassLoader loader, String what) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalStateException(what + ", " + name + ", is not on the class path: " + e, e);
        }
    }
}
