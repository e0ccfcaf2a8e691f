package io.github.retrytopology.spring;

import io.github.retrytopology.model.Names;
import io.github.retrytopology.model.Protocol;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.runtime.codec.Jackson3PayloadCodec;
import io.github.retrytopology.runtime.codec.JacksonPayloadCodec;
import io.github.retrytopology.runtime.codec.PayloadCodec;
import io.github.retrytopology.runtime.consumer.GeneratedTopology;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.amqp.autoconfigure.RabbitConnectionDetails;
import org.springframework.boot.amqp.autoconfigure.RabbitProperties;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.context.LifecycleProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.core.io.support.ResourcePatternUtils;
import org.springframework.util.ClassUtils;

/**
 * Consumes every service of the generated topologies on the class path whose handler interface has a bean,
 * through Boot's RabbitMQ settings, with the consumers started and stopped by the application context.
 *
 * <p>Start-up fails, naming the service, when a service has no handler bean or more than one; a service is left
 * out with {@code retry.services.<service>.enabled=false}, and every service with {@code retry.enabled=false}.
 *
 * <p>A service whose spec says {@code protocol: amqp-1.0} is consumed over AMQP 1.0, with RabbitMQ's AMQP 1.0 client
 * ({@code com.rabbitmq.client:amqp-client} 1.x), which the application brings: Spring Boot 4.1 configures no AMQP
 * 1.0 connection, so the starter opens its own from Boot's connection details and {@code retry.amqp10.*}. Without
 * the client, such a service fails the start-up, naming the dependency; the rest of the starter never loads it.
 */
@AutoConfiguration(afterName = {"org.springframework.boot.amqp.autoconfigure.RabbitAutoConfiguration",
        "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration",
        "org.springframework.boot.jackson2.autoconfigure.Jackson2AutoConfiguration"})
@ConditionalOnClass({RetryingConsumer.class, ConnectionFactory.class, RabbitConnectionDetails.class})
@ConditionalOnBooleanProperty(name = "retry.enabled", matchIfMissing = true)
@ConditionalOnBean({ConnectionFactory.class, RabbitConnectionDetails.class})
@EnableConfigurationProperties(RetryProperties.class)
public final class RetryAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(RetryAutoConfiguration.class);

    /** The class whose presence says that RabbitMQ's AMQP 1.0 client is on the class path. */
    static final String AMQP10_CLIENT = "com.rabbitmq.client.amqp.Connection";

    @Bean
    @ConditionalOnMissingBean
    RetryConsumers retryConsumers(ResourceLoader resourceLoader, ListableBeanFactory beans, RetryProperties properties,
            ConnectionFactory connectionFactory, RabbitConnectionDetails details,
            ObjectProvider<PayloadCodec> codec, ObjectProvider<RetryConsumerCustomizer> customizers,
            ObjectProvider<LifecycleProperties> lifecycle, Environment environment,
            ObjectProvider<RabbitProperties> rabbit, ObjectProvider<Amqp10Connector> amqp10) {
        ClassLoader loader = resourceLoader.getClassLoader() == null ? ClassUtils.getDefaultClassLoader()
                : resourceLoader.getClassLoader();
        List<GeneratedTopology> topologies = HandlerBeans.topologies(
                ResourcePatternUtils.getResourcePatternResolver(resourceLoader), loader);
        if (topologies.isEmpty()) {
            log.warn("No generated retry topology on the class path ({}): nothing to consume; run "
                    + "retry-maven-plugin's generate goal on retry.yml", Names.TOPOLOGY_RESOURCE_PATTERN);
        }
        if (properties.isDeclareTopology() && !ClassUtils.isPresent(TopologyDeclaration.DECLARER, loader)) {
            throw new RetryConfigurationException(List.of("retry.declare-topology is on, and "
                    + "io.github.retrytopology:retry-operations, which declares, is not on the class path"),
                    "Add io.github.retrytopology:retry-operations to the application's dependencies, or import the "
                            + "generated definitions.json into RabbitMQ instead.");
        }
        PayloadCodec payloads = codec.getIfAvailable(PayloadCodec::builtIn);
        List<ServiceHandler> handlers = HandlerBeans.resolve(topologies, beans, properties, payloads);
        List<RetrySpec> specs = topologies.stream().map(GeneratedTopology::spec).toList();
        Duration phase = lifecycle.getIfAvailable(LifecycleProperties::new).getTimeoutPerShutdownPhase();
        String vhost = ConsumerConnection.vhost(specs, details.getVirtualHost());
        List<String> overAmqp10 = handlers.stream().map(ServiceHandler::service)
                .filter(service -> service.protocol() == Protocol.AMQP_1_0).map(service -> service.name()).toList();
        Amqp10Connector connector = null;
        Amqp10Settings amqp10Settings = null;
        if (!overAmqp10.isEmpty()) {
            connector = amqp10.getIfAvailable();
            if (connector == null) {
                throw new RetryConfigurationException(overAmqp10.stream().map(name -> "service '" + name
                        + "' has 'protocol: amqp-1.0' in retry.yml, and RabbitMQ's AMQP 1.0 client ("
                        + AMQP10_CLIENT + ") is not on the class path").toList(), "Add com.rabbitmq.client:amqp-client "
                        + "(1.5.0 or a later 1.x) to the application's dependencies; or consume these services over "
                        + "AMQP 0.9.1 with 'protocol: amqp-0.9.1' in retry.yml, or leave them unconsumed with "
                        + "retry.services.<service>.enabled=false.");
            }
            RabbitProperties rabbitProperties = rabbit.getIfAvailable();
            amqp10Settings = Amqp10Settings.of(properties.getAmqp10(), details,
                    rabbitProperties == null ? null : rabbitProperties.getSsl(), vhost, overAmqp10);
        }
        return new RetryConsumers(handlers, specs, ConsumerConnection.factory(connectionFactory, vhost), details,
                payloads, customizers.orderedStream().toList(), properties,
                stopTimeout(phase), connectionName(environment), vhost, connector, amqp10Settings);
    }

    /** The AMQP 1.0 connection, for services whose spec says {@code protocol: amqp-1.0}, where the client is there. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = AMQP10_CLIENT)
    static class Amqp10Client {

        @Bean
        Amqp10Connector retryAmqp10Connector() {
            return new ClientAmqp10Connector();
        }
    }

    /**
     * How long the consumers wait for handlers on shutdown: the shutdown phase's time, less what closing the
     * channels and the connection takes, so that they close before Boot stops waiting.
     */
    static Duration stopTimeout(Duration phase) {
        Duration margin = phase.dividedBy(10);
        if (margin.compareTo(Duration.ofSeconds(1)) > 0) {
            margin = Duration.ofSeconds(1);
        }
        return phase.minus(margin);
    }

    private static String connectionName(Environment environment) {
        String application = environment.getProperty("spring.application.name");
        return application == null || application.isBlank() ? "retry-consumers" : application + " retry-consumers";
    }

    /** JSON payloads with the application's Jackson 3 mapper, Spring Boot 4's. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "tools.jackson.databind.ObjectMapper")
    static class Jackson3Codec {

        @Bean
        @ConditionalOnMissingBean(PayloadCodec.class)
        @ConditionalOnBean(tools.jackson.databind.ObjectMapper.class)
        PayloadCodec retryPayloadCodec(tools.jackson.databind.ObjectMapper mapper) {
            return PayloadCodec.builtIn().or(new Jackson3PayloadCodec(mapper));
        }
    }

    /** JSON payloads with the application's Jackson 2 mapper, where it has no Jackson 3 one. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "com.fasterxml.jackson.databind.ObjectMapper")
    static class Jackson2Codec {

        // Not left to the order the two nested classes are read in, which is not their order here.
        @Bean
        @ConditionalOnMissingBean(value = PayloadCodec.class, type = "tools.jackson.databind.ObjectMapper")
        @ConditionalOnBean(com.fasterxml.jackson.databind.ObjectMapper.class)
        PayloadCodec retryJackson2PayloadCodec(com.fasterxml.jackson.databind.ObjectMapper mapper) {
            return PayloadCodec.builtIn().or(new JacksonPayloadCodec(mapper));
        }
    }
}
