package io.github.retrytopology.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.TraceContext;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestVhost;
import io.github.retrytopology.spring.example.RetryTopology;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * With Micrometer Tracing over Brave, and no OpenTelemetry, each attempt is a Brave span of the publisher's trace,
 * through the application's {@code ObservationRegistry}.
 */
class BraveTracingIT {

    @RegisterExtension
    static final TestVhost vhost = new TestVhost();

    private static final String TRACE_ID = "0af7651916cd43dd8448eb211c80319c";

    @Test
    void eachAttemptIsABraveSpanOfThePublishersTrace() throws Exception {
        List<MutableSpan> spans = new CopyOnWriteArrayList<>();
        SpanHandler recorder = new SpanHandler() {
            @Override
            public boolean end(TraceContext context, MutableSpan span, Cause cause) {
                spans.add(span);
                return true;
            }
        };
        List<String> properties = new ArrayList<>(TestApplication.brokerProperties(vhost));
        properties.add("management.tracing.sampling.probability=1.0");
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(TestApplication.class, Orders.class)
                .properties(properties.toArray(String[]::new))
                .initializers(application -> application.getBeanFactory().registerSingleton("recorder", recorder))
                .run()) {
            try (Connection connection = vhost.connectionFactory().newConnection("publisher")) {
                Channel channel = connection.createChannel();
                channel.confirmSelect();
                channel.basicPublish(RetryTopology.EXCHANGE, "order.cancelled", true, new AMQP.BasicProperties.Builder()
                        .headers(Map.of("traceparent", "00-" + TRACE_ID + "-b7ad6b7169203331-01")).build(),
                        "fail-once-7".getBytes(StandardCharsets.UTF_8));
                channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
            }

            await().atMost(Patience.WAIT).until(() -> spans.stream()
                    .filter(span -> "orders".equals(span.tag("retry.service"))).count() == 2);
        }
        List<MutableSpan> attempts = spans.stream().filter(span -> "orders".equals(span.tag("retry.service"))).toList();
        assertThat(attempts).extracting(MutableSpan::traceId).containsOnly(TRACE_ID);
        assertThat(attempts).extracting(MutableSpan::name).containsOnly("process shop.events");
        assertThat(attempts).extracting(span -> span.tag("retry.outcome")).containsExactly("retry", "success");
        assertThat(attempts.get(0).error()).isInstanceOf(IllegalStateException.class);
    }
}
