package io.github.retrytopology.model.internal;

import static java.time.Duration.ofMinutes;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.retrytopology.model.Protocol;
import io.github.retrytopology.model.QueueType;
import io.github.retrytopology.model.Route;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.decision.Backoff;
import io.github.retrytopology.model.decision.DelayBackend;
import io.github.retrytopology.model.decision.RetryPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A policy in words says who holds its retries, and for how long: the tiers, the broker's linear delay, or AMQP 1.0. */
class PolicyTextTest {

    private static Service service(RetryPolicy policy) {
        return new Service("email", List.of(Route.of("order.created")), policy, QueueType.QUORUM);
    }

    @Test
    void overAmqp10TheBrokerHoldsEachRetryUntilItsDeliveryTime() {
        Service email = service(new RetryPolicy(4, Backoff.delays(ofSeconds(10), ofMinutes(1), ofMinutes(10)),
                List.of(), DelayBackend.BROKER, Protocol.AMQP_1_0));

        assertThat(PolicyText.describe(email)).isEqualTo("Up to 4 attempts, consumed over AMQP 1.0, the broker holding "
                + "each retry back until its delivery time: 10s, 1m and 10m (after a crash, 10s × the retry's number, "
                + "up to 10m); then the parking lot.");
        assertThat(PolicyText.delays(email)).isEqualTo("10s, 1m and 10m (by the broker, over AMQP 1.0)");
        assertThat(PolicyText.brokerRetryCause(email)).contains("attempts 1 to 3 failed or crashed");
        assertThat(PolicyText.parkCauses(email)).containsExactly("attempt 4 failed", "or crashed its consumer");
    }

    @Test
    void overAmqp10SaysWhenTheLastDelayRepeats() {
        Service email = service(new RetryPolicy(6, Backoff.delays(ofSeconds(10), ofMinutes(1)), List.of(),
                DelayBackend.BROKER, Protocol.AMQP_1_0));

        assertThat(PolicyText.brokerDelays(email)).isEqualTo("until its delivery time: 10s and 1m, that last delay "
                + "repeating (after a crash, 10s × the retry's number, up to 1m)");
    }

    @Test
    void overAmqp10ANeverRetriedServiceSaysItsProtocol() {
        Service email = service(new RetryPolicy(1, Backoff.none(), List.of(), DelayBackend.BROKER, Protocol.AMQP_1_0));

        assertThat(PolicyText.describe(email)).isEqualTo("Never retried, consumed over AMQP 1.0: a failure parks the "
                + "message.");
        assertThat(PolicyText.delays(email)).isEqualTo("none");
    }

    @Test
    void overAmqp091TheBrokersDelayGrowsLinearly() {
        Service email = service(new RetryPolicy(4, Backoff.delays(ofSeconds(1), ofSeconds(2), ofSeconds(3)), List.of(),
                DelayBackend.BROKER));

        assertThat(PolicyText.describe(email)).isEqualTo("Up to 4 attempts, the broker holding each retry back 1s × "
                + "the retry's number, up to 3s; then the parking lot.");
        assertThat(PolicyText.delays(email)).isEqualTo("1s × the retry's number, up to 3s (by the broker)");
    }
}
