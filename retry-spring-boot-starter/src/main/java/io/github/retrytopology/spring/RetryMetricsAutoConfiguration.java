package io.github.retrytopology.spring;

import io.github.retrytopology.model.Service;
import io.github.retrytopology.runtime.consumer.Amqp10RetryingConsumer;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.consumer.ServiceConsumer;
import io.github.retrytopology.runtime.metrics.MicrometerRetryMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * The consumers' metrics in the application's {@link MeterRegistry}: {@code retry.messages},
 * {@code messaging.process.duration}, {@code retry.consumers.running} and the rest that
 * {@link MicrometerRetryMetrics} names, for the consumers of either protocol.
 */
@AutoConfiguration(before = RetryAutoConfiguration.class, afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnClass({MeterRegistry.class, RetryingConsumer.class})
@ConditionalOnBean(MeterRegistry.class)
public final class RetryMetricsAutoConfiguration {

    @Bean
    RetryConsumerCustomizer retryMetricsCustomizer(MeterRegistry registry) {
        MicrometerRetryMetrics metrics = MicrometerRetryMetrics.of(registry);
        return new RetryConsumerCustomizer() {
            @Override
            public void customize(Service service, RetryingConsumer.Builder builder) {
                builder.listener(metrics).observer(metrics);
            }

            @Override
            public void customize(Service service, Amqp10RetryingConsumer.Builder builder) {
                builder.listener(metrics).observer(metrics);
            }

            @Override
            public void started(ServiceConsumer consumer) {
                metrics.watch(consumer);
            }
        };
    }
}
