package io.github.retrytopology.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import io.github.retrytopology.runtime.codec.PayloadCodec;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.opentelemetry.api.OpenTelemetry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.amqp.autoconfigure.RabbitAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the auto-configurations wire, by what the application has; no service is consumed here (both are disabled),
 * so nothing connects.
 */
class RetryAutoConfigurationTest {

    private static final String JSON = "application/json";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(RabbitAutoConfiguration.class, RetryAutoConfiguration.class,
                    RetryMetricsAutoConfiguration.class, RetryTracingAutoConfiguration.class,
                    RetryHealthAutoConfiguration.class))
            .withPropertyValues("retry.services.orders.enabled=false", "retry.services.audit.enabled=false");

    @Test
    void decodesJsonWithBootsJackson3Mapper() {
        runner.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class))
                .withPropertyValues("spring.jackson.property-naming-strategy=SNAKE_CASE")
                .run(context -> assertThat(decode(context.getBean(PayloadCodec.class)))
                        .isEqualTo(new OrderPlaced("o-1", 1250)));
    }

    @Test
    void decodesJsonWithAJackson2MapperWhereThereIsNoJackson3One() {
        runner.withBean(com.fasterxml.jackson.databind.ObjectMapper.class, () -> new com.fasterxml.jackson.databind
                        .ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE))
                .run(context -> {
                    assertThat(context).doesNotHaveBean(JsonMapper.class);
                    assertThat(decode(context.getBean(PayloadCodec.class))).isEqualTo(new OrderPlaced("o-1", 1250));
                });
    }

    @Test
    void prefersBootsJackson3MapperToAJackson2One() {
        runner.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class))
                .withPropertyValues("spring.jackson.property-naming-strategy=SNAKE_CASE")
                .withBean(com.fasterxml.jackson.databind.ObjectMapper.class,
                        com.fasterxml.jackson.databind.ObjectMapper::new)
                .run(context -> {
                    assertThat(context).hasSingleBean(PayloadCodec.class);
                    assertThat(decode(context.getBean(PayloadCodec.class))).isEqualTo(new OrderPlaced("o-1", 1250));
                });
    }

    @Test
    void takesTheApplicationsOwnCodec() {
        PayloadCodec own = PayloadCodec.builtIn();
        runner.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class))
                .withBean(PayloadCodec.class, () -> own)
                .run(context -> assertThat(context.getBean(PayloadCodec.class)).isSameAs(own));
    }

    @Test
    void wiresMetricsTracingAndHealthOnlyWhereTheApplicationHasThem() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(RetryConsumers.class);
            assertThat(context).doesNotHaveBean("retryMetricsCustomizer").doesNotHaveBean("retryTracingCustomizer");
            assertThat(context).hasBean("retryHealthIndicator");
        });
        runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withBean(OpenTelemetry.class, OpenTelemetry::noop)
                .run(context -> assertThat(context).hasBean("retryMetricsCustomizer").hasBean("retryTracingCustomizer")
                        .getBeans(RetryConsumerCustomizer.class).hasSize(2));
        runner.withPropertyValues("management.health.retry.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(HealthIndicator.class));
    }

    @Test
    void tracesThroughOpenTelemetryWhereThereIsOneElseThroughMicrometerTracing() {
        runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withBean(ObservationRegistry.class, ObservationRegistry::create)
                .withBean(io.micrometer.tracing.Tracer.class, () -> io.micrometer.tracing.Tracer.NOOP)
                .run(context -> assertThat(context).hasBean("retryTracingCustomizer")
                        .doesNotHaveBean(RetryTracingAutoConfiguration.OpenTelemetryApi.class));
        runner.withBean(ObservationRegistry.class, ObservationRegistry::create)
                .withBean(io.micrometer.tracing.Tracer.class, () -> io.micrometer.tracing.Tracer.NOOP)
                .withBean(OpenTelemetry.class, OpenTelemetry::noop)
                .run(context -> assertThat(context).hasSingleBean(RetryTracingAutoConfiguration.OpenTelemetryApi.class)
                        .doesNotHaveBean(RetryTracingAutoConfiguration.MicrometerTracing.class));
    }

    @Test
    void wiresTheAmqp10ConnectorOnlyWhereRabbitMqsAmqp10ClientIsOnTheClassPath() {
        runner.run(context -> assertThat(context).hasSingleBean(Amqp10Connector.class));
        runner.withClassLoader(new FilteredClassLoader("com.rabbitmq.client.amqp."))
                .run(context -> assertThat(context).hasSingleBean(RetryConsumers.class)
                        .doesNotHaveBean(Amqp10Connector.class));
    }

    @Test
    void wiresNothingWhenRetryIsOff() {
        runner.withPropertyValues("retry.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(RetryConsumers.class)
                        .doesNotHaveBean(HealthIndicator.class));
    }

    @Test
    void stopsHandlersInTimeForBootsShutdownPhase() {
        assertThat(RetryAutoConfiguration.stopTimeout(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(29));
        assertThat(RetryAutoConfiguration.stopTimeout(Duration.ofSeconds(5))).isEqualTo(Duration.ofMillis(4_500));
    }

    @Test
    void describesEveryPropertyForIdes() throws IOException {
        String metadata;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).isNotNull();
            metadata = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(metadata).contains("\"name\": \"retry.enabled\"", "\"name\": \"retry.declare-topology\"",
                "\"name\": \"retry.amqp10.port\"", "\"name\": \"retry.amqp10.host\"",
                "\"name\": \"retry.services\"", "\"name\": \"retry.management.url\"",
                "\"name\": \"retry.health.parking-lot-threshold\"",
                // IDEs complete retry.services.<service>.consumers, .prefetch and .enabled from the map's value type.
                "\"type\": \"java.util.Map<java.lang.String,io.github.retrytopology.spring.RetryProperties$Service>\"");
        JsonNode properties = JsonMapper.builder().build().readTree(metadata).get("properties");
        assertThat(properties).isNotEmpty().allSatisfy(property -> assertThat(property.path("description").asString())
                .as(property.get("name").asString()).isNotBlank());
    }

    private static OrderPlaced decode(PayloadCodec codec) {
        return codec.decode("{\"order_id\":\"o-1\",\"amount_cents\":1250}".getBytes(StandardCharsets.UTF_8),
                OrderPlaced.class, JSON);
    }
}
