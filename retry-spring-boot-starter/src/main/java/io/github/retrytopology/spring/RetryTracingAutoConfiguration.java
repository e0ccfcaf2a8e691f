package io.github.retrytopology.spring;

import io.github.retrytopology.model.Service;
import io.github.retrytopology.runtime.consumer.Amqp10RetryingConsumer;
import io.github.retrytopology.runtime.consumer.DeliveryObserver;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.tracing.MicrometerObservationTracing;
import io.github.retrytopology.runtime.tracing.OpenTelemetryTracing;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import io.opentelemetry.api.OpenTelemetry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A span per delivery, parented by the trace context its publisher propagated, in the application's traces:
 * <ul>
 *   <li>with an {@link OpenTelemetry} bean, through the OpenTelemetry API: Boot has one with
 *       {@code spring-boot-starter-opentelemetry}, and with Micrometer Tracing over OpenTelemetry;
 *   <li>else with Micrometer Tracing over another tracer, such as Brave, through the application's
 *       {@code ObservationRegistry}, whose tracing handlers make the bridged tracer's span of each observation.
 * </ul>
 */
@AutoConfiguration(before = RetryAutoConfiguration.class, afterName = {
        "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
        "org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration",
        "org.springframework.boot.micrometer.tracing.autoconfigure.NoopTracerAutoConfiguration",
        "org.springframework.boot.micrometer.tracing.brave.autoconfigure.BraveAutoConfiguration",
        "org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration",
        "org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration"})
@ConditionalOnClass(RetryingConsumer.class)
public final class RetryTracingAutoConfiguration {

    /** Where there is OpenTelemetry, its API, and no second span through Micrometer. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.opentelemetry.api.OpenTelemetry")
    @ConditionalOnBean(type = "io.opentelemetry.api.OpenTelemetry")
    static class OpenTelemetryApi {

        @Bean
        RetryConsumerCustomizer retryTracingCustomizer(OpenTelemetry openTelemetry) {
            return new Observing(OpenTelemetryTracing.of(openTelemetry));
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.tracing.Tracer")
    @ConditionalOnBean(type = {"io.micrometer.tracing.Tracer", "io.micrometer.observation.ObservationRegistry"})
    @ConditionalOnMissingBean(type = "io.opentelemetry.api.OpenTelemetry")
    static class MicrometerTracing {

        /** Nothing to observe for Micrometer's no-op tracer, which Boot has where no tracer is bridged. */
        @Bean
        RetryConsumerCustomizer retryTracingCustomizer(Tracer tracer, ObservationRegistry registry) {
            if (tracer == Tracer.NOOP) {
                return (service, builder) -> { };
            }
            return new Observing(MicrometerObservationTracing.of(registry));
        }
    }

    /** Adds a tracer's observer to the consumers of either protocol. */
    private record Observing(DeliveryObserver observer) implements RetryConsumerCustomizer {

        @Override
        public void customize(Service service, RetryingConsumer.Builder builder) {
            builder.observer(observer);
        }

        @Override
        public void customize(Service service, Amqp10RetryingConsumer.Builder builder) {
            builder.observer(observer);
        }
    }
}
