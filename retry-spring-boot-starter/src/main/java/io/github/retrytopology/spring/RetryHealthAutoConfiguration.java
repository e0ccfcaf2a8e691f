package io.github.retrytopology.spring;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/** The "retry" health indicator, where the application has Boot's health support. */
@AutoConfiguration(after = RetryAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(RetryConsumers.class)
@ConditionalOnEnabledHealthIndicator("retry")
public final class RetryHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "retryHealthIndicator")
    HealthIndicator retryHealthIndicator(RetryConsumers consumers, RetryProperties properties) {
        return new RetryHealthIndicator(consumers, properties.getHealth().getParkingLotThreshold(),
                properties.getHealth().getParkingLotInterval(), System::nanoTime);
    }
}
