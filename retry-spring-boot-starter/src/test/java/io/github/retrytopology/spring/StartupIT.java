package io.github.retrytopology.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.retrytopology.runtime.testing.TestVhost;
import io.github.retrytopology.spring.example.AuditHandler;
import io.github.retrytopology.spring.example.OrdersHandler;
import io.github.retrytopology.spring.example.RetryTopology;
import io.github.retrytopology.model.topology.Topology;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.ResourceLoader;

/**
 * What start-up does with the handler beans and the {@code retry.*} properties it is given: a service without a
 * handler, or with two, fails it, naming the service; a disabled service needs none.
 */
class StartupIT {

    @RegisterExtension
    static final TestVhost vhost = new TestVhost();

    @Configuration(proxyBeanMethods = false)
    static class OneOrdersHandler {
        @Bean
        Orders orders() {
            return new Orders();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoOrdersHandlers {
        @Bean
        Orders orders() {
            return new Orders();
        }

        @Bean
        Orders moreOrders() {
            return new Orders();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class AuditToo {
        @Bean
        AuditHandler audit() {
            return context -> {
            };
        }
    }

    @Test
    void failsNamingAServiceWithoutAHandlerBean() {
        RetryConfigurationException failure = startupFailure(List.of(), "retry.services.audit.enabled=true");

        assertThat(failure.problems()).containsExactly(
                "service 'orders' has no handler: no bean implements " + OrdersHandler.class.getName()
                        + " (set retry.services.orders.enabled=false to leave it unconsumed)",
                "service 'audit' has no handler: no bean implements io.github.retrytopology.spring.example"
                        + ".AuditHandler (set retry.services.audit.enabled=false to leave it unconsumed)");
        FailureAnalysis analysis = new RetryFailureAnalyzer().analyze(failure);
        assertThat(analysis.getDescription()).startsWith("The services of retry.yml cannot be consumed:")
                .contains("- service 'orders' has no handler");
        assertThat(analysis.getAction()).contains("exactly one bean");
    }

    @Test
    void failsNamingBothBeansWhenTwoImplementOneHandler() {
        RetryConfigurationException failure = startupFailure(List.of(TwoOrdersHandlers.class));

        assertThat(failure.problems()).containsExactly("service 'orders' has 2 handler beans, and one consumes it: "
                + "'orders' (" + Orders.class.getName() + "), 'moreOrders' (" + Orders.class.getName()
                + ") all implement " + OrdersHandler.class.getName());
    }

    @Test
    void failsOnPropertiesThatNameNoServiceOrHoldValuesOutOfRange() {
        RetryConfigurationException failure = startupFailure(List.of(OneOrdersHandler.class),
                "retry.services.ordres.consumers=2", "retry.services.orders.prefetch=0",
                "retry.services.orders.consumers=-1");

        assertThat(failure.problems()).containsExactlyInAnyOrder(
                "retry.services.ordres names no service of retry.yml, whose services are orders, audit",
                "retry.services.orders.consumers is at least 1, got -1",
                "retry.services.orders.prefetch is between 1 and 65535, got 0");
    }

    @Test
    void failsNamingThePayloadsNoCodecDecodes() {
        RetryConfigurationException failure = startupFailure(List.of(OneOrdersHandler.class),
                "spring.autoconfigure.exclude=org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration");

        assertThat(failure.problems()).containsExactly("service 'orders' takes payloads that no codec decodes: "
                + "order.placed (" + OrderPlaced.class.getName() + ") (add spring-boot-starter-jackson for JSON, or "
                + "declare a PayloadCodec bean)");
    }

    @Test
    void failsToDeclareTheTopologyWithoutRetryOperations() {
        Throwable failure = catchStartup(new DefaultResourceLoader(
                new FilteredClassLoader("io.github.retrytopology.operations")), List.of(OneOrdersHandler.class));

        assertThat(NestedExceptionUtils.getMostSpecificCause(failure))
                .isInstanceOf(RetryConfigurationException.class)
                .hasMessage("retry.declare-topology is on, and io.github.retrytopology:retry-operations, which "
                        + "declares, is not on the class path");
    }

    @Test
    void failsNamingTheMissingQueueItsVhostAndHowToCreateIt() throws IOException {
        vhost.deleteQueues(Topology.of(vhost.inThisVhost(RetryTopology.SPEC)));

        RetryConfigurationException failure = startupFailure(List.of(OneOrdersHandler.class),
                "retry.declare-topology=false");

        assertThat(failure.problems()).containsExactly("service 'orders' (handler bean 'orders') could not consume "
                + "queue 'orders' in virtual host '" + vhost.name() + "': NOT_FOUND - no queue 'orders' in vhost '"
                + vhost.name() + "'");
        FailureAnalysis analysis = new RetryFailureAnalyzer().analyze(failure);
        assertThat(analysis.getAction()).contains("virtual host '" + vhost.name() + "'", "definitions.vhost.json",
                "'apply'", "retry.declare-topology=true");
    }

    @Test
    void consumesEveryServiceThatHasAHandlerWhenNoneIsDisabled() {
        try (ConfigurableApplicationContext context = start(List.of(OneOrdersHandler.class, AuditToo.class),
                "retry.services.audit.enabled=true")) {
            assertThat(context.getBean(RetryConsumers.class).services())
                    .containsExactly(RetryTopology.ORDERS, RetryTopology.AUDIT);
            assertThat(context.getBean(RetryConsumers.class).consumer(RetryTopology.AUDIT).isRunning()).isTrue();
        }
    }

    @Test
    void startsWhenTheApplicationSaysWhereAutoStartupIsOffAndAgainAfterAStop() {
        try (ConfigurableApplicationContext context = start(List.of(OneOrdersHandler.class),
                "retry.auto-startup=false")) {
            RetryConsumers consumers = context.getBean(RetryConsumers.class);
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            assertThat(consumers.isRunning()).isFalse();
            assertThat(consumers.consumer(RetryTopology.ORDERS)).isNull();

            consumers.start();
            consumers.stop();
            consumers.start();

            assertThat(consumers.consumer(RetryTopology.ORDERS).isRunning()).isTrue();
            assertThat(meters.get("retry.consumers.running").gauge().value()).isEqualTo(1);
        }
    }

    @Test
    void consumesNothingWhenRetryIsOff() {
        try (ConfigurableApplicationContext context = start(List.of(), "retry.enabled=false")) {
            assertThat(context.getBeansOfType(RetryConsumers.class)).isEmpty();
        }
    }

    private static RetryConfigurationException startupFailure(List<Class<?>> configurations, String... properties) {
        Throwable failure = catchStartup(configurations, properties);
        Throwable cause = NestedExceptionUtils.getMostSpecificCause(failure);
        assertThat(cause).isInstanceOf(RetryConfigurationException.class);
        return (RetryConfigurationException) cause;
    }

    private static Throwable catchStartup(List<Class<?>> configurations, String... properties) {
        return catchStartup(new DefaultResourceLoader(), configurations, properties);
    }

    private static Throwable catchStartup(ResourceLoader loader, List<Class<?>> configurations,
            String... properties) {
        Throwable[] thrown = new Throwable[1];
        assertThatThrownBy(() -> start(loader, configurations, properties).close()).satisfies(e -> thrown[0] = e);
        return thrown[0];
    }

    private static ConfigurableApplicationContext start(List<Class<?>> configurations, String... properties) {
        return start(new DefaultResourceLoader(), configurations, properties);
    }

    private static ConfigurableApplicationContext start(ResourceLoader loader, List<Class<?>> configurations,
            String... properties) {
        List<Class<?>> sources = new ArrayList<>(List.of(TestApplication.class));
        sources.addAll(configurations);
        List<String> all = new ArrayList<>(TestApplication.brokerProperties(vhost));
        all.addAll(List.of(properties));
        SpringApplication application = new SpringApplicationBuilder(sources.toArray(Class<?>[]::new))
                .resourceLoader(loader)
                .properties(all.toArray(String[]::new))
                .build();
        return application.run();
    }
}
