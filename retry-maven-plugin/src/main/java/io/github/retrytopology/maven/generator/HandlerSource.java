package io.github.retrytopology.maven.generator;

import io.github.retrytopology.model.Names;
import io.github.retrytopology.model.Protocol;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Route;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.internal.PolicyText;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The variables of {@code handler.java.ftl}: the handler interface of one service. */
final class HandlerSource {

    static final String TEMPLATE = "handler.java.ftl";

    private HandlerSource() {
    }

    /**
     * @param javaPackage the package
     * @param imports the imports, sorted
     * @param generated how to write the {@code @Generated} annotation
     * @param generator the generator's name in it
     * @param name the interface's name
     * @param serviceDoc the service's name for Javadoc
     * @param queueDoc the service's queue for Javadoc
     * @param policyDoc its retry policy in a sentence, for Javadoc, in lines
     * @param consumeDoc how to consume it, with the consumer its protocol needs, for Javadoc, in lines
     * @param sourceDoc the spec file's name, for Javadoc
     * @param deliveryContext how to write {@code DeliveryContext}
     * @param routes how to write {@code Routes}
     * @param exception how to write {@code Exception}
     * @param suppressWarnings how to write {@code SuppressWarnings}
     * @param serviceConstant how to write the service's constant, such as {@code RetryTopology.CDN_PURGE}
     * @param handler the name of the {@code routes} method's parameter
     * @param builder the name of its builder: one statement per route, as a chain of a thousand calls would
     *     overflow javac's stack
     * @param typed whether any method takes a decoded payload, whose class may be generic and is then taken raw
     * @param methods one per routing key, in the spec's order
     */
    public record Variables(String javaPackage, List<String> imports, String generated, String generator, String name,
            String serviceDoc, String queueDoc, List<String> policyDoc, List<String> consumeDoc, String sourceDoc,
            String deliveryContext,
            String routes, String exception, String suppressWarnings, String serviceConstant, String handler,
            String builder, boolean typed, List<Method> methods) {
    }

    /**
     * @param name the method's name
     * @param key the routing key
     * @param keyDoc the routing key for Javadoc
     * @param typed whether the method takes a decoded payload
     * @param payloadType how to write the payload type; empty if not typed
     * @param payloadDoc the payload type for Javadoc; empty if not typed
     */
    public record Method(String name, String key, String keyDoc, boolean typed, String payloadType, String payloadDoc) {
    }

    /**
     * How to consume the service, in lines: with {@code RetryingConsumer} or the starter over AMQP 0.9.1; over AMQP
     * 1.0 with {@code Amqp10RetryingConsumer} or the starter, which gives each retry its listed delay.
     */
    private static List<String> consumeDoc(Service service, String name) {
        String outcome = "A method that returns acknowledges its message; one that throws fails the attempt, and the "
                + "retry policy decides what follows.";
        if (service.protocol() == Protocol.AMQP_1_0) {
            return Javadoc.lines("Implement one method per routing key, then consume it over AMQP 1.0, as its spec "
                    + "asks ({@code protocol: " + Protocol.AMQP_1_0.id() + "}), with {@code Amqp10RetryingConsumer."
                    + "builder(connection, " + name + ".routes(handler)).start()} on RabbitMQ's AMQP 1.0 client, or, "
                    + "with retry-spring-boot-starter, make the implementation a bean. " + outcome, 110);
        }
        return List.of("Implement one method per routing key, then consume with",
                "{@code RetryingConsumer.builder(connection, " + name + ".routes(handler)).start()}, or, with",
                "retry-spring-boot-starter, make the implementation a bean. A method that returns acknowledges its "
                        + "message; one",
                "that throws fails the attempt, and the retry policy decides what follows.");
    }

    static GeneratedFile render(RetrySpec spec, Service service, Path directory, String generator,
            String sourceName) {
        String name = service.handlerInterface();
        Imports imports = new Imports(spec.javaPackage(), List.of(name));
        String generated = imports.reference("javax.annotation.processing.Generated");
        String deliveryContext = imports.reference("io.github.retrytopology.runtime.consumer.DeliveryContext");
        String routes = imports.reference("io.github.retrytopology.runtime.consumer.Routes");
        String exception = imports.reference("java.lang.Exception");
        String suppressWarnings = imports.reference("java.lang.SuppressWarnings");
        String topology = imports.reference(spec.topologyClass());
        List<Method> methods = new ArrayList<>();
        for (Route route : service.routes()) {
            String payload = route.payloadType().map(imports::reference).orElse("");
            String payloadDoc = route.payloadType().map(type -> Javadoc.code(Names.sourceName(type))).orElse("");
            methods.add(new Method(route.handler(), route.key().value(), Javadoc.code(route.key().value()),
                    route.payloadType().isPresent(), payload, payloadDoc));
        }
        boolean typed = methods.stream().anyMatch(Method::typed);
        Variables variables = new Variables(spec.javaPackage(), imports.imports(), generated, generator, name,
                Javadoc.code(service.name()), Javadoc.code(service.queue()),
                Javadoc.lines(Javadoc.text(PolicyText.describe(service)), 110), consumeDoc(service, name),
                Javadoc.text(sourceName), deliveryContext, routes, exception, suppressWarnings,
                topology + "." + service.constant(), imports.variable("handler"), imports.variable("routes"), typed,
                methods);
        return GeneratedFile.of(directory.resolve(name + ".java"), Templates.java(TEMPLATE, variables));
    }
}
