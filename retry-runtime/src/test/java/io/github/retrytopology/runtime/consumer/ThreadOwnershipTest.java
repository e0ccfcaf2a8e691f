package io.github.retrytopology.runtime.consumer;

import static io.github.retrytopology.runtime.consumer.FakeDeliveries.body;
import static io.github.retrytopology.runtime.consumer.FakeDeliveries.failing;
import static io.github.retrytopology.runtime.consumer.FakeDeliveries.properties;
import static io.github.retrytopology.runtime.consumer.FakeDeliveries.succeeding;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.BlockedListener;
import io.github.retrytopology.runtime.testing.Patience;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Who runs what in the consumer, against a fake connection: the state a lane owns fails loudly when touched from
 * another thread, nothing waits where it must not, and a consumer with nothing to do runs nothing. What RabbitMQ
 * does is tested on a real broker, in the {@code *IT} tests.
 */
class ThreadOwnershipTest {

    private RetryingConsumer consumer;

    @AfterEach
    void stop() throws InterruptedException {
        if (consumer != null) {
            consumer.stop(Duration.ofSeconds(1));
        }
    }

    @Test
    void aSubscriptionChangedOffTheControlLaneFailsWhereItIsCalled() throws Exception {
        FakeConnection fake = new FakeConnection((channel, routingKey, properties) -> { });
        consumer = RetryingConsumer.builder(fake.connection, succeeding()).consumers(2).start();
        Subscription subscription = consumer.channelConsumers().get(0).subscription();

        assertThatThrownBy(subscription::cancel).isInstanceOf(IllegalStateException.class)
                .hasMessage("this runs on retry-orders-control, not on " + Thread.currentThread().getName());
        assertThatThrownBy(() -> subscription.steer(true, 1, 0)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> subscription.resubscribe("test")).isInstanceOf(IllegalStateException.class);
        assertThat(subscription.isSubscribed()).as("nothing changed").isTrue();

        assertThat(consumer.context().control.await(subscription::cancel)).isTrue();
        assertThat(subscription.isSubscribed()).as("changed on its lane").isFalse();
    }

    @Test
    void deliveriesAreAcknowledgedTogetherOnlyOnTheSettlementLane() throws Exception {
        FakeConnection fake = new FakeConnection((channel, routingKey, properties) -> { });
        consumer = RetryingConsumer.builder(fake.connection, succeeding()).start();
        Settlements settlements = consumer.channelConsumers().get(0).subscription().life().settlements;

        assertThatThrownBy(() -> settlements.acknowledgeTogether(List.of(1L)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("this runs on retry-orders-settlement, not on " + Thread.currentThread().getName());
        assertThat(fake.channels.get(0).acks).isEmpty();
    }

    @Test
    void theCautiousSubscriptionIsCancelledBeforeItsDeliveryIsAnsweredWithoutWaitingForTheBroker() throws Exception {
        FakeConnection fake = new FakeConnection((channel, routingKey, properties) -> { });
        consumer = RetryingConsumer.builder(fake.connection, succeeding()).prefetch(20).start();
        FakeConnection.FakeChannel channel = fake.channels.get(0);

        for (long tag = 1; tag <= RetryingConsumer.CAUTIOUS_RUN; tag++) {
            channel.deliver(tag, "order.created", properties(), body());
        }

        assertThat(channel.frames.subList(RetryingConsumer.CAUTIOUS_RUN - 2, RetryingConsumer.CAUTIOUS_RUN + 1))
                .as("sent by the delivering thread, with no answer awaited, before the delivery's ack")
                .containsExactly("ack 9", "cancel retry-orders-1-1 nowait", "ack 10");
        await().atMost(Patience.WAIT).until(() -> channel.consumes.size() == 2);
        assertThat(channel.consumes).containsExactly("retry-orders-1-1", "retry-orders-1-2");
        assertThat(consumer.channelConsumers().get(0).subscription().prefetch()).isEqualTo(20);
    }

    @Test
    void anIdleConsumerRunsNothingOnItsLanes() throws Exception {
        FakeConnection fake = new FakeConnection((channel, routingKey, properties) -> { });
        consumer = RetryingConsumer.builder(fake.connection, succeeding()).consumers(3).prefetch(20).start();
        for (long tag = 1; tag <= RetryingConsumer.CAUTIOUS_RUN; tag++) {
            fake.channels.get(0).deliver(tag, "order.created", properties(), body());
        }
        await().atMost(Patience.WAIT).until(() -> consumer.consumersRunning() == 3);
        ConsumerContext context = consumer.context();
        long control = context.control.tasksRun();
        long settlement = context.settlement.tasksRun();

        Thread.sleep(500);

        assertThat(context.control.tasksRun()).as("tasks on the control lane while idle").isEqualTo(control);
        assertThat(context.settlement.tasksRun()).as("tasks on the settlement lane while idle").isEqualTo(settlement);
    }

    @Test
    void aRefusedRepublishIsNotSentAgainWhileTheBrokerBlocksTheConnection() throws Exception {
        FakeConnection fake = new FakeConnection((channel, routingKey, properties) -> { });
        consumer = RetryingConsumer.builder(fake.connection, failing()).start();
        FakeConnection.FakeChannel channel = fake.channels.get(0);
        channel.deliver(1, "order.created", properties(), body());
        await().atMost(Patience.WAIT).until(() -> channel.published.size() == 1);

        fake.blockedListeners.forEach(listener -> blocked(listener, true));
        channel.refuseAll();
        Thread.sleep(400); // four times the first back-off

        assertThat(channel.attempts).as("no send while blocked").hasSize(1);
        fake.blockedListeners.forEach(listener -> blocked(listener, false));
        await().atMost(Patience.WAIT).until(() -> channel.published.size() == 2);
        channel.confirmAll();
        await().atMost(Patience.WAIT).until(() -> channel.acks.size() == 1);
        assertThat(consumer.inFlight()).isZero();
    }

    private static void blocked(BlockedListener listener, boolean blocked) {
        try {
            if (blocked) {
                listener.handleBlocked("test: a resource alarm");
            } else {
                listener.handleUnblocked();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
