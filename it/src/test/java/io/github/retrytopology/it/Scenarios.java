package io.github.retrytopology.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.GetResponse;
import io.github.retrytopology.model.topology.Queue;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.codec.JacksonPayloadCodec;
import io.github.retrytopology.runtime.codec.PayloadCodec;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What the end-to-end scenarios share: the generated definitions, publishing, and reading queues. */
final class Scenarios {

    static final PayloadCodec JSON = PayloadCodec.builtIn().or(new JacksonPayloadCodec(new ObjectMapper()));

    private Scenarios() {
    }

    /** Reads a resource the plugin generated beside a generated topology class. */
    static String generated(Class<?> topology, String resource) throws IOException {
        try (InputStream in = topology.getResourceAsStream(resource)) {
            assertThat(in).as("generated resource %s of %s", resource, topology.getName()).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * Imports the generated per-vhost definitions into the test's vhost, as an operator would with
     * {@code POST /api/definitions/{vhost}}.
     */
    static void importDefinitions(TestVhost broker, Class<?> topology, String resource) throws IOException {
        broker.management().importDefinitions(broker.name(), generated(topology, resource));
    }

    /** Publishes to an exchange with publisher confirms, failing the test if the broker does not take it. */
    static void publish(Channel channel, String exchange, String routingKey, byte[] body, AMQP.BasicProperties properties)
            throws Exception {
        channel.basicPublish(exchange, routingKey, true, properties, body);
        channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
    }

    static void publish(Channel channel, String exchange, String routingKey, String body) throws Exception {
        publish(channel, exchange, routingKey, body.getBytes(StandardCharsets.UTF_8),
                new AMQP.BasicProperties.Builder().contentType("text/plain").messageId(body).build());
    }

    /** Takes every message of a queue. */
    static List<GetResponse> drain(Channel channel, String queue) throws IOException {
        List<GetResponse> messages = new ArrayList<>();
        for (GetResponse response = channel.basicGet(queue, true); response != null;
                response = channel.basicGet(queue, true)) {
            messages.add(response);
        }
        return messages;
    }

    /** Asserts how many messages wait in each queue of a topology: none but those given. */
    static void assertQueues(Channel channel, Topology topology, Map<String, Integer> expected) throws IOException {
        for (Queue queue : topology.queues()) {
            assertThat(channel.messageCount(queue.name())).as("messages in %s", queue.name())
                    .isEqualTo(expected.getOrDefault(queue.name(), 0).longValue());
        }
    }
}
