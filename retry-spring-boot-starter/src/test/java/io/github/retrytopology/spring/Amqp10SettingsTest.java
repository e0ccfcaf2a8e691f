package io.github.retrytopology.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.amqp.autoconfigure.RabbitConnectionDetails;
import org.springframework.boot.amqp.autoconfigure.RabbitProperties;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslStoreBundle;

/**
 * Where the AMQP 1.0 connection goes, from Boot's connection details and {@code retry.amqp10.*}: spring.rabbitmq's
 * addresses and user, the consumers' virtual host, another port or host where set, and TLS from an SSL bundle.
 */
class Amqp10SettingsTest {

    private static final List<String> PAYMENTS = List.of("payments");

    private final RetryProperties.Amqp10 amqp10 = new RetryProperties.Amqp10();
    private final RabbitProperties rabbit = new RabbitProperties();

    @Test
    void takesBootsAddressesUserAndTheConsumersVhost() {
        Amqp10Settings settings = Amqp10Settings.of(amqp10, details(null, "rabbit-1:5672", "rabbit-2:5673"),
                rabbit.getSsl(), "media", PAYMENTS);

        assertThat(settings.describe()).isEqualTo("rabbit-1:5672,rabbit-2:5673");
        assertThat(settings.username()).isEqualTo("svc");
        assertThat(settings.password()).isEqualTo("secret");
        assertThat(settings.vhost()).isEqualTo("media");
        assertThat(settings.sslContext()).isNull();
        assertThat(settings.toString()).doesNotContain("secret");
    }

    @Test
    void takesAnotherPortForEveryHostWhereRetryAmqp10PortIsSet() {
        amqp10.setPort(5682);

        Amqp10Settings settings = Amqp10Settings.of(amqp10, details(null, "rabbit-1:5672", "rabbit-2:5673"),
                rabbit.getSsl(), "/", PAYMENTS);

        assertThat(settings.describe()).isEqualTo("rabbit-1:5682,rabbit-2:5682");
    }

    @Test
    void refusesAPortOutOfRange() {
        amqp10.setPort(0);

        assertThatThrownBy(() -> Amqp10Settings.of(amqp10, details(null, "rabbit-1:5672"), rabbit.getSsl(), "/",
                PAYMENTS))
                .isInstanceOf(RetryConfigurationException.class)
                .hasMessage("retry.amqp10.port is between 1 and 65535, got 0");
    }

    @Test
    void takesOneHostWhereRetryAmqp10HostIsSetAtTheFirstAddressPortUnlessAPortIsSet() {
        amqp10.setHost("amqp10.internal");

        assertThat(Amqp10Settings.of(amqp10, details(null, "rabbit-1:5671", "rabbit-2:5672"), rabbit.getSsl(), "/",
                PAYMENTS).describe()).isEqualTo("amqp10.internal:5671");
        amqp10.setPort(5682);
        assertThat(Amqp10Settings.of(amqp10, details(null, "rabbit-1:5671"), rabbit.getSsl(), "/", PAYMENTS)
                .describe()).isEqualTo("amqp10.internal:5682");
    }

    @Test
    void takesTlsFromBootsSslBundle() {
        rabbit.getSsl().setEnabled(true);
        rabbit.getSsl().setVerifyHostname(false);

        Amqp10Settings settings = Amqp10Settings.of(amqp10, details(SslBundle.of(SslStoreBundle.NONE),
                "rabbit-1:5671"), rabbit.getSsl(), "/", PAYMENTS);

        assertThat(settings.sslContext()).isNotNull();
        assertThat(settings.verifyHostname()).isFalse();
    }

    @Test
    void takesTheJvmsTlsContextWhereTlsIsOnWithoutABundleOrStores() throws Exception {
        rabbit.getSsl().setEnabled(true);

        Amqp10Settings settings = Amqp10Settings.of(amqp10, details(null, "rabbit-1:5671"), rabbit.getSsl(), "/",
                PAYMENTS);

        assertThat(settings.sslContext()).isSameAs(javax.net.ssl.SSLContext.getDefault());
        assertThat(settings.verifyHostname()).isTrue();
    }

    @Test
    void refusesTlsFromKeyAndTrustStorePropertiesWhichOnlyTheAmqp091ConnectionReads() {
        rabbit.getSsl().setEnabled(true);
        rabbit.getSsl().setTrustStore("classpath:rabbit.jks");
        rabbit.getSsl().setValidateServerCertificate(false);

        assertThatThrownBy(() -> Amqp10Settings.of(amqp10, details(null, "rabbit-1:5671"), rabbit.getSsl(), "/",
                List.of("payments", "refunds")))
                .isInstanceOf(RetryConfigurationException.class)
                .hasMessage("services 'payments', 'refunds' (protocol: amqp-1.0) connect over AMQP 1.0 with TLS, which "
                        + "takes its keys and trust from an SSL bundle, not from spring.rabbitmq.ssl.trust-store, "
                        + "spring.rabbitmq.ssl.validate-server-certificate=false")
                .satisfies(e -> assertThat(((RetryConfigurationException) e).action())
                        .contains("spring.rabbitmq.ssl.bundle"));
    }

    /** Boot's connection details as user svc, with this bundle (null for none), at these host:port addresses. */
    private static RabbitConnectionDetails details(SslBundle bundle, String... addresses) {
        List<RabbitConnectionDetails.Address> parsed = java.util.Arrays.stream(addresses).map(address -> {
            String[] parts = address.split(":");
            return new RabbitConnectionDetails.Address(parts[0], Integer.parseInt(parts[1]));
        }).toList();
        return new RabbitConnectionDetails() {
            @Override
            public String getUsername() {
                return "svc";
            }

            @Override
            public String getPassword() {
                return "secret";
            }

            @Override
            public List<Address> getAddresses() {
                return parsed;
            }

            @Override
            public SslBundle getSslBundle() {
                return bundle;
            }
        };
    }
}
