package io.github.retrytopology.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.spring.example.RetryTopology;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The health indicator asks the broker for the parking lots' depths at most once per
 * {@code retry.health.parking-lot-interval}, not on every probe: probes in between report the depths last read.
 */
@ExtendWith(BootVhost.class)
@SpringBootTest(classes = {TestApplication.class, Orders.class}, properties = {
        "retry.health.parking-lot-threshold=0",
        "retry.health.parking-lot-interval=1h"})
@DirtiesContext
class RetryHealthIT {

    @DynamicPropertySource
    static void broker(DynamicPropertyRegistry registry) {
        for (String property : TestApplication.brokerProperties(BootVhost.of(RetryHealthIT.class))) {
            String[] parts = property.split("=", 2);
            registry.add(parts[0], () -> parts[1]);
        }
    }

    @Autowired
    Map<String, HealthIndicator> health;
    @Autowired
    RetryConsumers consumers;

    @Test
    void readsTheParkingLotsDepthsAtMostOncePerInterval() throws Exception {
        HealthIndicator indicator = health.get("retryHealthIndicator");
        long first = parked(indicator.health(true));

        park("parked-by-hand");

        for (int probe = 0; probe < 20; probe++) {
            assertThat(parked(indicator.health(true))).as("the depth read by the first probe, within the hour")
                    .isEqualTo(first);
        }
    }

    @Test
    void readsTheDepthsAgainOnceTheIntervalHasPassed() throws Exception {
        AtomicLong ticker = new AtomicLong();
        RetryHealthIndicator indicator = new RetryHealthIndicator(consumers, null, Duration.ofSeconds(10),
                ticker::get);
        long before = parked(indicator.health(true));

        park("parked-by-hand-too");
        ticker.addAndGet(Duration.ofSeconds(9).toNanos());
        long within = parked(indicator.health(true));
        ticker.addAndGet(Duration.ofSeconds(1).toNanos());
        long after = parked(indicator.health(true));

        assertThat(within).isEqualTo(before);
        assertThat(after).isEqualTo(before + 1);
    }

    @SuppressWarnings("unchecked")
    private static long parked(Health health) {
        Map<String, Map<String, Object>> services = (Map<String, Map<String, Object>>) health.getDetails()
                .get("services");
        return (Long) services.get("orders").get("parked");
    }

    private static void park(String body) throws Exception {
        try (Connection connection = BootVhost.of(RetryHealthIT.class).connectionFactory().newConnection("parker")) {
            Channel channel = connection.createChannel();
            channel.confirmSelect();
            channel.basicPublish("", RetryTopology.ORDERS.parkingLot(), true,
                    new AMQP.BasicProperties.Builder().deliveryMode(2).build(), body.getBytes(StandardCharsets.UTF_8));
            channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
        }
    }
}
