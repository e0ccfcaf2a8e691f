package io.github.retrytopology.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.spring.example.RetryTopology;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;

/**
 * The virtual host the consumers connect to: Boot's where it names one, else the one of retry.yml; specs that name
 * different ones, with none from Boot, are refused.
 */
class ConsumerVhostTest {

    private static final RetrySpec SPEC = RetryTopology.SPEC;

    @Test
    void takesTheVhostOfRetryYmlWhereBootNamesNone() {
        assertThat(ConsumerConnection.vhost(List.of(SPEC.inVhost("media")), null)).isEqualTo("media");
        assertThat(ConsumerConnection.vhost(List.of(SPEC), null)).isEqualTo("/");
    }

    @Test
    void takesBootsVhostWhereItNamesOne() {
        assertThat(ConsumerConnection.vhost(List.of(SPEC.inVhost("media")), "media-staging"))
                .isEqualTo("media-staging");
    }

    @Test
    void connectsTheConsumersToTheVhostChosen() {
        assertThat(ConsumerConnection.factory(new CachingConnectionFactory(), "media").getVirtualHost())
                .isEqualTo("media");
    }

    @Test
    void refusesSpecsThatNameDifferentVhostsWhereBootNamesNone() {
        assertThatThrownBy(() -> ConsumerConnection.vhost(List.of(SPEC.inVhost("media"), SPEC.inVhost("billing")),
                null))
                .isInstanceOf(RetryConfigurationException.class)
                .hasMessage("the specs on the class path name different virtual hosts, and the consumers share one "
                        + "connection: vhost 'billing' for exchange 'shop.events'; vhost 'media' for exchange "
                        + "'shop.events'")
                .satisfies(e -> assertThat(((RetryConfigurationException) e).action())
                        .contains("spring.rabbitmq.virtual-host"));
    }
}
