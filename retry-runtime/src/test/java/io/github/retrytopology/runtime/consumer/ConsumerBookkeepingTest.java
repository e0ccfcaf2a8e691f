package io.github.retrytopology.runtime.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.AMQP;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The consumer's own bookkeeping at moments a real broker rarely offers on cue, against a fake connection: every
 * delivery is answered exactly once, and deadlines follow a monotonic clock. What RabbitMQ does is tested on a
 * real broker, in the {@code *IT} tests.
 */
class ConsumerBookkeepingTest {

    private static final Service ORDERS = load().service("orders");
    private final List<Integer> inFlightSeen = new CopyOnWriteArrayList<>();
    private RetryingConsumer consumer;

    @AfterEach
    void stop() throws InterruptedException {
        if (consumer != null) {
            consumer.stop(Duration.ofSeconds(1));
        }
    }

    @Test
    void aChannelThatClosesBetweenRegisteringARepublishAndSendingItAnswersTheDeliveryOnce() throws Exception {
        FakeConnection fake = new FakeConnection((channel, routingKey, properties) -> channel.closeByBroker());
        consumer = RetryingConsumer.builder(fake.connection, failing()).start();

        fake.channels.get(0).deliver(1, "order.created", properties(), body());

        await().atMost(5, TimeUnit.SECONDS).until(() -> fake.channels.get(0).attempts.size() == 1);
        for (int i = 0; i < 20; i++) {
            inFlightSeen.add(consumer.inFlight());
            Thread.sleep(10);
        }
        assertThat(inFlightSeen).containsOnly(0);
        assertThat(fake.channels.get(0).nacks).as("the broker requeues it; nothing is answered").isEmpty();
        assertThat(consumer.stop(Duration.ofSeconds(1))).isTrue();
    }

    @Test
    void aChannelClosedByAChannelErrorIsOpenedAgainAndTheListenerHearsOfIt() throws Exception {
        FakeConnection fake = new FakeConnection((channel, routingKey, properties) -> {
        });
        RecordingListener events = new RecordingListener();
        consumer = RetryingConsumer.builder(fake.connection, failing()).listener(events).start();

        fake.channels.get(0).closeByBroker();

        await().atMost(5, TimeUnit.SECONDS).until(() -> fake.channels.size() == 2 && consumer.isRunning());
        assertThat(fake.channels.get(1).consumer).as("subscribed on the new channel").isNotNull();
        assertThat(events.consumers).hasSize(2);
        assertThat(events.consumers.get(0)).startsWith("lost: its channel closed").contains("PRECONDITION_FAILED");
        assertThat(events.consumers.get(1)).isEqualTo("restored");
    }

    @Test
    void aConfirmDeadlineFollowsTheMonotonicClockNotTheWallClock() throws Exception {
        FakeConnection fake = new FakeConnection((channel, routingKey, properties) -> {
        });
        Clock stopped = Clock.fixed(Instant.parse("2026-11-22T12:00:00Z"), ZoneOffset.UTC);
        consumer = RetryingConsumer.builder(fake.connection, failing()).clock(stopped)
                .confirmTimeout(Duration.ofMillis(200)).start();

        fake.channels.get(0).deliver(1, "order.created", properties(), body());

        await().atMost(5, TimeUnit.SECONDS).until(() -> fake.channels.get(0).published.size() >= 2);
        assertThat(fake.channels.get(0).published).containsOnly(ORDERS.tier(1).queue());
        assertThat(fake.channels.get(0).nacks).as("never requeued for a slow confirm").isEmpty();
        fake.channels.get(0).confirmAll();
        await().atMost(5, TimeUnit.SECONDS).until(() -> fake.channels.get(0).acks.size() == 1);
        assertThat(consumer.inFlight()).isZero();
    }

    private static Routes failing() {
        Routes.Builder routes = Routes.builder(ORDERS);
        ORDERS.routes().forEach(route -> routes.on(route.key().value(), context -> {
            throw new IllegalStateException("fails");
        }));
        return routes.build();
    }

    private static AMQP.BasicProperties properties() {
        return new AMQP.BasicProperties.Builder().contentType("text/plain").build();
    }

    private static byte[] body() {
        return "body".getBytes(StandardCharsets.UTF_8);
    }

    private static RetrySpec load() {
        try {
            return RetrySpec.load(Path.of("src/test/resources/specs/reliability.yml"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
