package io.github.retrytopology.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.retrytopology.model.topology.BrokerVersion;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestVhost;
import io.github.retrytopology.spring.amqp10.RetryTopology;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.NestedExceptionUtils;

/**
 * A service with {@code protocol: amqp-1.0} and a broker that cannot consume it: RabbitMQ 3, which has no AMQP 1.0
 * for RabbitMQ's client, and RabbitMQ 4.0 to 4.3.0, which does not hold a retry until its delivery time. Each test
 * runs on the brokers it is about and is skipped on the others; the RabbitMQ 3 ones run on the default 3.10 broker.
 */
@ExtendWith(OutputCaptureExtension.class)
class Amqp10RefusalIT {

    @RegisterExtension
    static final TestVhost vhost = new TestVhost();

    private static final BrokerVersion AMQP10_CORE = new BrokerVersion(4, 0, 0);

    @Test
    void failsFastNamingTheBrokerTheServiceAndTheVersionItNeedsOnRabbitMq3() throws IOException {
        BrokerVersion version = vhost.broker().version();
        assumeTrue(!version.atLeast(AMQP10_CORE), "RabbitMQ " + version + " speaks AMQP 1.0");

        RetryConfigurationException failure = startupFailure("retry.fail-fast=true");

        InetSocketAddress broker = vhost.broker().amqpAddress();
        assertThat(failure.problems()).singleElement().asString()
                .startsWith("service 'payments' (protocol: amqp-1.0) could not connect over AMQP 1.0 to RabbitMQ at "
                        + broker.getHostString() + ":" + broker.getPort() + ", virtual host '" + vhost.name()
                        + "': the broker, RabbitMQ " + version + ", does not speak AMQP 1.0 (")
                .endsWith("); protocol: amqp-1.0 needs RabbitMQ 4.3.1 or later");
        FailureAnalysis analysis = new RetryFailureAnalyzer().analyze(failure);
        assertThat(analysis.getDescription()).startsWith("The services of retry.yml cannot be consumed:")
                .contains("protocol: amqp-1.0 needs RabbitMQ 4.3.1 or later");
        assertThat(analysis.getAction()).contains("Upgrade RabbitMQ to 4.3.1 or later",
                "'protocol: amqp-0.9.1' in retry.yml", "retry.fail-fast=false");
    }

    @Test
    void startsDownAndTriesAgainInTheBackgroundOnRabbitMq3WhereNotAskedToFailFast(CapturedOutput output)
            throws IOException {
        BrokerVersion version = vhost.broker().version();
        assumeTrue(!version.atLeast(AMQP10_CORE), "RabbitMQ " + version + " speaks AMQP 1.0");

        try (ConfigurableApplicationContext context = start()) {
            RetryConsumers consumers = context.getBean(RetryConsumers.class);
            Health down = context.getBean("retryHealthIndicator", HealthIndicator.class).health(true);

            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails()).containsEntry("connected", false);
            assertThat(down.getDetails().get("notConnected")).asString()
                    .contains("does not speak AMQP 1.0", "protocol: amqp-1.0 needs RabbitMQ 4.3.1 or later");
            assertThat(consumers.consumer(RetryTopology.PAYMENTS)).isNull();
            // The first try is at start-up, the second after 1 s, the third 2 s later.
            await().atMost(Patience.WAIT).until(() -> output.getOut().contains("the retry consumers try again in 2 s"));
            assertThat(consumers.isConnected()).isFalse();
        }
    }

    @Test
    void failsFastNamingTheAmqp10ListenerItCouldNotReach() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }

        RetryConfigurationException failure = startupFailure("retry.fail-fast=true", "retry.amqp10.port=" + port);

        assertThat(failure.problems()).singleElement().asString()
                .startsWith("service 'payments' (protocol: amqp-1.0) could not connect over AMQP 1.0 to RabbitMQ at "
                        + vhost.broker().amqpAddress().getHostString() + ":" + port + ", virtual host '"
                        + vhost.name() + "': ")
                .contains("Connection refused");
        assertThat(failure.action()).contains("retry.amqp10.port");
    }

    @Test
    void failsNamingTheServiceOnRabbitMq40To430WhichDoesNotHoldARetryUntilItsTime() throws IOException {
        BrokerVersion version = vhost.broker().version();
        assumeTrue(version.atLeast(AMQP10_CORE) && !version.atLeast(BrokerVersion.DELAYED_RETRY),
                "RabbitMQ " + version + " is not between 4.0 and 4.3.0");

        RetryConfigurationException failure = startupFailure();

        assertThat(failure.problems()).singleElement().asString()
                .startsWith("service 'payments' (handler bean 'payments') could not consume queue 'payments' in "
                        + "virtual host '" + vhost.name() + "' over AMQP 1.0: ")
                .contains("which needs RabbitMQ 4.3.1 or later", "is RabbitMQ " + version);
        assertThat(failure.action()).contains("Upgrade RabbitMQ to 4.3.1 or later", "'protocol: amqp-0.9.1'");
    }

    private static RetryConfigurationException startupFailure(String... properties) {
        Throwable[] thrown = new Throwable[1];
        assertThatThrownBy(() -> start(properties).close()).satisfies(e -> thrown[0] = e);
        Throwable cause = NestedExceptionUtils.getMostSpecificCause(thrown[0]);
        assertThat(cause).isInstanceOf(RetryConfigurationException.class);
        return (RetryConfigurationException) cause;
    }

    /** An application that consumes payments only, with no topology declared: each refusal comes before a queue. */
    private static ConfigurableApplicationContext start(String... properties) {
        List<String> all = new ArrayList<>(List.of("spring.rabbitmq.addresses=" + vhost.broker().amqpUri(vhost.name()),
                "retry.services.orders.enabled=false", "retry.services.audit.enabled=false"));
        all.addAll(List.of(properties));
        return new SpringApplicationBuilder(TestApplication.class, Payments.class)
                .resourceLoader(Amqp10Spec.resourceLoader())
                .properties(all.toArray(String[]::new))
                .run();
    }
}
