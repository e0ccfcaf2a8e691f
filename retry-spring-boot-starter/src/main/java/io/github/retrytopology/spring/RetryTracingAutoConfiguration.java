package io.github.retrytopology.spring;

import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.tracing.OpenTelemetryTracing;
import io.opentelemetry.api.OpenTelemetry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * A span per delivery through the application's {@link OpenTelemetry}, parented by the trace context its publisher
 * propagated. Boot has that bean with {@code spring-boot-starter-opentelemetry}, and with Micrometer Tracing over
 * OpenTelemetry, so the consumers' spans join the application's traces and exporters either way.
 */
@AutoConfiguration(before = RetryAutoConfiguration.class, afterName = {
        "org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration",
        "org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration"})
@ConditionalOnClass({OpenTelemetry.class, RetryingConsumer.class})
@ConditionalOnBean(OpenTelemetry.class)
public final class RetryTracingAutoConfiguration {

    @Bean
    RetryConsumerCustomizer retryTracingCustomizer(OpenTelemetry openTelemetry) {
        OpenTelemetryTracing tracing = OpenTelemetryTracing.of(openTelemetry);
        return (service, builder) -> builder.observer(tracing);
    }
}
