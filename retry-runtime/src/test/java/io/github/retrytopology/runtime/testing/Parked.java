package io.github.retrytopology.runtime.testing;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.decision.Decision;
import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.runtime.amqp091.Republishing;
import io.github.retrytopology.runtime.headers.RetryHeaders;
import io.github.retrytopology.runtime.internal.Arrival;
import io.github.retrytopology.runtime.internal.HeaderWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;

/** Parked messages for tests: published to a parking lot as the consumer parks them, without running one. */
public final class Parked {

    private Parked() {
    }

    /**
     * Publishes a message to a service's parking lot as if it had failed its 4th and last attempt with
     * {@code failure} at {@code parkedAt}, with the message id {@code id-BODY}; the caller waits for the confirm.
     */
    public static void publish(Channel channel, Service service, String routingKey, String body, Exception failure,
            Instant parkedAt) throws IOException {
        publish(channel, service, routingKey, "id-" + body, body.getBytes(StandardCharsets.UTF_8), failure, parkedAt);
    }

    /** The same, with a message id and a body of the caller's. */
    public static void publish(Channel channel, Service service, String routingKey, String messageId, byte[] body,
            Exception failure, Instant parkedAt) throws IOException {
        Decision.Park park = new Decision.Park(ParkReason.ATTEMPTS_EXHAUSTED, "attempt 4 of 4 failed");
        AMQP.BasicProperties published = new AMQP.BasicProperties.Builder().messageId(messageId)
                .contentType("application/json").build();
        Map<String, Object> headers = HeaderWriter.afterFailure(RetryHeaders.of(null),
                new Arrival("test.events", routingKey, null, messageId), 4, failure, park, parkedAt, 100_000);
        channel.basicPublish("", service.parkingLot(), true, Republishing.republish(published, headers), body);
    }
}
