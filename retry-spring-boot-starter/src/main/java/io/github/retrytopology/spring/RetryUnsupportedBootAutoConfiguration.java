package io.github.retrytopology.spring;

import java.util.List;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * Fails the start-up of a Spring Boot 3 application that has the starter, rather than leaving it to consume
 * nothing: Boot 3 keeps its RabbitMQ auto-configuration in the package that Boot 4 moved to
 * {@code org.springframework.boot.amqp.autoconfigure}, so {@link RetryAutoConfiguration} would never match.
 */
@AutoConfiguration
@ConditionalOnClass(name = "org.springframework.boot.autoconfigure.amqp.RabbitAutoConfiguration")
@ConditionalOnMissingClass("org.springframework.boot.amqp.autoconfigure.RabbitAutoConfiguration")
@ConditionalOnProperty(name = "retry.enabled", havingValue = "true", matchIfMissing = true)
public final class RetryUnsupportedBootAutoConfiguration {

    @Bean
    Object retryUnsupportedBoot() {
        throw new RetryConfigurationException(List.of("retry-spring-boot-starter needs Spring Boot 4, and this "
                + "application runs Spring Boot " + SpringBootVersion.getVersion()), "Upgrade to Spring Boot 4.1, or "
                + "consume with retry-runtime's RetryingConsumer directly (see docs/using-it.md), or set "
                + "retry.enabled=false.");
    }
}
