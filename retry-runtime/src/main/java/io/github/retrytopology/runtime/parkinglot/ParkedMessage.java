package io.github.retrytopology.runtime.parkinglot;

import static java.util.Objects.requireNonNull;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.GetResponse;
import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.runtime.headers.RetryHeaders;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A message in a parking lot, its retry headers decoded. A message the broker parked itself, after its
 * deliveries kept crashing consumers, has no failure headers; its reason, time and routing key come from
 * {@code x-death}.
 *
 * @param properties the message's properties, headers included
 * @param body the message's body
 */
public record ParkedMessage(AMQP.BasicProperties properties, byte[] body) {

    private static final String DELIVERY_LIMIT = "delivery_limit";

    public ParkedMessage {
        requireNonNull(properties, "properties");
        requireNonNull(body, "body");
    }

    static ParkedMessage of(GetResponse response) {
        return new ParkedMessage(response.getProps(), response.getBody());
    }

    /** The message's retry headers. */
    public RetryHeaders headers() {
        return RetryHeaders.of(properties.getHeaders());
    }

    /** Why it was parked, if anyone said. */
    public Optional<ParkReason> reason() {
        Optional<ParkReason> reason = headers().parkReason();
        if (reason.isPresent()) {
            return reason;
        }
        return brokerPark().map(death -> ParkReason.DELIVERY_LIMIT);
    }

    /** Why it was parked, in a sentence. */
    public String detail() {
        return headers().parkDetail().orElseGet(() -> brokerPark()
                .map(death -> "delivered " + (death.count() > 1 ? death.count() + " times " : "")
                        + "past the delivery limit of " + death.queue() + ": its consumers crashed or lost their "
                        + "connection on every delivery")
                .orElse("no reason recorded"));
    }

    /** When it was parked, if known. */
    public Optional<Instant> parkedAt() {
        return headers().parkedAt().or(() -> brokerPark().flatMap(RetryHeaders.Death::time));
    }

    /** The routing key it was first published with, if known. */
    public Optional<String> routingKey() {
        return headers().originalRoutingKey().or(() -> headers().deaths().stream()
                .reduce((newer, older) -> older)
                .flatMap(first -> first.routingKeys().stream().findFirst()));
    }

    /** Failed deliveries before it was parked. */
    public int attempts() {
        return headers().attempts();
    }

    /** The class of its last failure, if one was recorded. */
    public Optional<String> exception() {
        return headers().exception();
    }

    /** The message of its last failure, if one was recorded. */
    public Optional<String> exceptionMessage() {
        return headers().exceptionMessage();
    }

    /** One line per failure, oldest first. */
    public List<String> failures() {
        return headers().failures();
    }

    private Optional<RetryHeaders.Death> brokerPark() {
        return headers().deaths().stream().filter(death -> death.reason().equals(DELIVERY_LIMIT)).findFirst();
    }
}
