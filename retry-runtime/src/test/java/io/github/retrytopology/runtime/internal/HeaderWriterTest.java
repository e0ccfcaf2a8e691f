package io.github.retrytopology.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;
import io.github.retrytopology.model.decision.Decision;
import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.runtime.amqp091.Republishing;
import io.github.retrytopology.runtime.headers.RetryHeaders;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** How the headers' writer keeps them within a frame; what it writes is read back in {@code RetryHeadersTest}. */
class HeaderWriterTest {

    private static final AMQP.BasicProperties PLAIN = new AMQP.BasicProperties.Builder().messageId("m-1").build();
    private static final Instant FIRST = Instant.parse("2026-11-22T10:00:00Z");
    private static final Envelope FROM_EXCHANGE = new Envelope(7, false, "shop.events", "order.created");
    private static final Decision RETRY = new Decision.Retry(1, Duration.ofSeconds(10));

    @Test
    void boundsTheExceptionMessageAndTheHistory() {
        Map<String, Object> headers = null;
        for (int attempt = 1; attempt <= 25; attempt++) {
            headers = HeaderWriter.afterFailure(RetryHeaders.of(headers), Republishing.arrival(FROM_EXCHANGE, PLAIN), attempt,
                    new IllegalStateException("x".repeat(5_000)), RETRY, FIRST, 100_000);
        }

        RetryHeaders read = RetryHeaders.of(headers);
        assertThat(read.exceptionMessage()).hasValueSatisfying(message ->
                assertThat(message).hasSize(RetryHeaders.MAX_MESSAGE_LENGTH).endsWith("…"));
        assertThat(read.failures()).hasSize(RetryHeaders.MAX_HISTORY).first().asString().startsWith("attempt 16 ");
        assertThat(HeaderSize.size(headers)).isLessThan(8_000);
    }

    @Test
    void dropsTheOldestHistoryFirstToFitASmallFrame() {
        Map<String, Object> headers = null;
        for (int attempt = 1; attempt <= 10; attempt++) {
            headers = HeaderWriter.afterFailure(RetryHeaders.of(headers), Republishing.arrival(FROM_EXCHANGE, PLAIN), attempt,
                    new IllegalStateException("y".repeat(400)), RETRY, FIRST, 2_000);
        }

        assertThat(HeaderSize.size(headers)).isLessThanOrEqualTo(2_000);
        assertThat(RetryHeaders.of(headers).failures()).isNotEmpty().last().asString().startsWith("attempt 10 ");
    }

    @Test
    void neverExceedsTheFrameAsSentWhateverTheMessagesAndTheAttempts() {
        // Whether the headers fit is first judged by a bound counted as they are made: it must never fall short, and
        // must count what each send adds (the publisher's expiration, an identity of ours, the publish id).
        SplittableRandom random = new SplittableRandom(20261122);
        String letters = "ab\u00e9\u4e2d\ud83d\ude00 ";
        for (int run = 0; run < 2_000; run++) {
            int maxBytes = random.nextInt(900, 4_000);
            Map<String, Object> headers = random.nextBoolean() ? null : Map.of("tenant", "acme");
            AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder()
                    .messageId(random.nextBoolean() ? null : "order-" + run)
                    .expiration(random.nextBoolean() ? null : String.valueOf(random.nextLong(1, Long.MAX_VALUE)))
                    .build();
            int attempts = random.nextInt(1, 9);
            for (int attempt = 1; attempt <= attempts; attempt++) {
                StringBuilder message = new StringBuilder();
                for (int i = random.nextInt(0, 600); i > 0; i--) {
                    message.append(letters.charAt(random.nextInt(letters.length())));
                }
                Decision decision = attempt == attempts && random.nextBoolean()
                        ? new Decision.Park(ParkReason.ATTEMPTS_EXHAUSTED, "attempt " + attempt + " failed") : RETRY;
                headers = HeaderWriter.afterFailure(RetryHeaders.of(headers), Republishing.arrival(FROM_EXCHANGE, properties), attempt,
                        new IllegalStateException(message.toString()), decision, FIRST.plusSeconds(attempt), maxBytes);
                Map<String, Object> sent = Republishing.outgoing(properties, new java.util.HashMap<>(headers))
                        .stamped(Long.MAX_VALUE).getHeaders();
                assertThat(HeaderSize.size(sent)).as("run %d, attempt %d", run, attempt)
                        .isLessThanOrEqualTo(maxBytes);
                properties = properties.builder().expiration(null).build();
            }
        }
    }
}
