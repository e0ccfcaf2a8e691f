package io.github.retrytopology.runtime.consumer;

import static io.github.retrytopology.runtime.consumer.FakeDeliveries.ORDERS;
import static io.github.retrytopology.runtime.consumer.FakeDeliveries.body;
import static io.github.retrytopology.runtime.consumer.FakeDeliveries.failing;
import static io.github.retrytopology.runtime.consumer.FakeDeliveries.failingOn;
import static io.github.retrytopology.runtime.consumer.FakeDeliveries.properties;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.retrytopology.runtime.testing.Patience;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The consumer's own bookkeeping at moments a real broker rarely offers on cue, against a fake connection: every
 * delivery is answered exactly once, and deadlines follow a monotonic clock. What RabbitMQ does is tested on a
 * real broker, in the {@code *IT} tests.
 */
class ConsumerBookkeepingTest {

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

        await().atMost(Patience.WAIT).until(() -> fake.channels.get(0).attempts.size() == 1);
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

        await().atMost(Patience.WAIT).until(() -> fake.channels.size() == 2 && consumer.isRunning());
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

        await().atMost(Patience.WAIT).until(() -> fake.channels.get(0).published.size() >= 2);
        assertThat(fake.channels.get(0).published).containsOnly(ORDERS.tier(1).queue());
        assertThat(fake.channels.get(0).nacks).as("never requeued for a slow confirm").isEmpty();
        fake.channels.get(0).confirmAll();
        await().atMost(Patience.WAIT).until(() -> fake.channels.get(0).acks.size() == 1);
        assertThat(consumer.inFlight()).isZero();
    }

    /**
     * The thread that settles confirms never waits on a broker round trip: while the subscription of a second
     * consumer hangs (a broker slow to answer basic.consume), the first one's retries are still acknowledged.
     */
    @Test
    void retriesAreAcknowledgedWhileAnotherConsumerWaitsForTheBrokerToSubscribeIt() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        FakeConnection fake = new FakeConnection((channel, routingKey, properties) -> {
        }, channel -> {
            if (channel.number == 2) {
                release.await();
            }
        });
        try {
            consumer = RetryingConsumer.builder(fake.connection, failingOn("fail")).consumers(2).prefetch(5).start();
            FakeConnection.FakeChannel first = fake.channels.get(0);
            for (long tag = 1; tag <= RetryingConsumer.CAUTIOUS_RUN; tag++) {
                first.deliver(tag, "order.created", properties(), "fine".getBytes(StandardCharsets.UTF_8));
            }
            await().atMost(Patience.WAIT).until(() -> fake.channels.get(1).consumes.size() == 1);

            long failing = RetryingConsumer.CAUTIOUS_RUN + 1;
            first.deliver(failing, "order.created", properties(), "fail".getBytes(StandardCharsets.UTF_8));
            await().atMost(Patience.WAIT).until(() -> first.published.size() == 1);
            first.confirmAll();

            await().atMost(Patience.WAIT).until(() -> first.acks.contains(failing));
        } finally {
            release.countDown();
        }
    }

    /**
     * A consumer that the broker cancels subscribes again only after its back-off, however soon its next tick comes:
     * RabbitMQ 3.10 closes the whole connection on a consume from a quorum queue still being deleted.
     */
    @Test
    void aConsumerTheBrokerCancelsSubscribesAgainOnlyAfterItsBackOff() throws Exception {
        ManualTicker ticker = new ManualTicker();
        FakeConnection fake = new FakeConnection((channel, routingKey, properties) -> {
        });
        consumer = RetryingConsumer.builder(fake.connection, failing()).ticker(ticker).start();
        FakeConnection.FakeChannel channel = fake.channels.get(0);

        channel.cancelByBroker();
        Thread.sleep(300); // three ticks of the control thread, the clock standing still

        assertThat(channel.consumes).as("subscriptions before the back-off has passed").hasSize(1);
        ticker.advance(Duration.ofMillis(200));
        await().atMost(Patience.WAIT).until(() -> channel.consumes.size() == 2);
    }

    /**
     * A second stop neither starts a stop of its own nor claims that every delivery was answered while one is still
     * in its handler: it waits for the first, and says what it said.
     */
    @Test
    void aSecondStopWaitsForTheFirstAndSaysWhatItSaid() throws Exception {
        CountDownLatch handling = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        FakeConnection fake = new FakeConnection((channel, routingKey, properties) -> {
        });
        Routes.Builder routes = Routes.builder(ORDERS);
        ORDERS.routes().forEach(route -> routes.on(route.key().value(), context -> {
            handling.countDown();
            release.await();
        }));
        consumer = RetryingConsumer.builder(fake.connection, routes.build()).start();
        Thread delivering = new Thread(() -> {
            try {
                fake.channels.get(0).deliver(1, "order.created", properties(), body());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "fake-dispatch");
        delivering.start();
        assertThat(handling.await(Patience.WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<Boolean> first = stopInBackground();
        await().atMost(Patience.WAIT).until(() -> !consumer.isRunning());
        CompletableFuture<Boolean> second = stopInBackground();
        Thread.sleep(200);

        assertThat(second).as("the second stop, while a delivery is in its handler").isNotDone();
        release.countDown();
        assertThat(first.get(Patience.WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(second.get(Patience.WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(fake.channels.get(0).acks).containsExactly(1L);
    }

    private CompletableFuture<Boolean> stopInBackground() {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return consumer.stop(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** A monotonic clock that stands still until moved. */
    private static final class ManualTicker implements Ticker {
        private volatile long now = 1_000_000_000L;

        @Override
        public long nanos() {
            return now;
        }

        void advance(Duration by) {
            now += by.toNanos();
        }
    }
}
