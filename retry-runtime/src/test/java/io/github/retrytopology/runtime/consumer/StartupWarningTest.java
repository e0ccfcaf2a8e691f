package io.github.retrytopology.runtime.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.load.Specs;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A consumer warns at start-up of each {@code nonRetryable} class the application cannot load: no exception of it
 * is ever thrown, so a misspelled one leaves the failure it meant to park retried. (The log goes to the standard
 * error, as slf4j-simple writes it in the tests.)
 */
class StartupWarningTest {

    private static final Service ORDERS = Specs.parse(("""
            version: 1
            package: com.acme.retry
            exchange: acme.events
            services:
              orders:
                routingKeys: [order.created]
                maxAttempts: 1
                nonRetryable: [java.lang.IllegalArgumentExeption, java.lang.IllegalStateException]
            """).getBytes(StandardCharsets.UTF_8), "retry.yml").service("orders");

    @Test
    void warnsOfANonRetryableClassItCannotLoad() throws Exception {
        FakeConnection fake = new FakeConnection((channel, routingKey, properties) -> {
        });
        PrintStream err = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        RetryingConsumer consumer;
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try {
            consumer = RetryingConsumer.builder(fake.connection,
                    Routes.builder(ORDERS).on("order.created", context -> { }).build()).start();
        } finally {
            System.setErr(err);
        }
        consumer.stop(Duration.ofSeconds(1));

        assertThat(log.toString(StandardCharsets.UTF_8))
                .contains("WARN io.github.retrytopology.runtime.consumer.RetryingConsumer - service 'orders': there is "
                        + "no non-retryable exception 'java.lang.IllegalArgumentExeption' on the class path; no "
                        + "exception of it can be thrown here, so the failure meant is retried")
                .doesNotContain("IllegalStateException");
    }
}
