package io.github.retrytopology.spring;

import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;
import org.springframework.boot.amqp.autoconfigure.RabbitConnectionDetails;
import org.springframework.boot.amqp.autoconfigure.RabbitProperties;
import org.springframework.boot.ssl.SslBundle;

/**
 * Where the AMQP 1.0 connection of the {@code protocol: amqp-1.0} services goes, and as whom: Boot's
 * {@code spring.rabbitmq.*} settings (its connection details' addresses, user and SSL bundle), the consumers' virtual
 * host, and {@code retry.amqp10.*} where it must differ. Decided in no type of the AMQP 1.0 client, which is
 * optional, so that it is decided, and tested, without it.
 *
 * @param addresses the brokers to try, at least one
 * @param vhost the virtual host, the AMQP 0.9.1 consumers' own
 * @param sslContext TLS, as Boot's SSL bundle has it; null for a plain connection
 * @param verifyHostname whether TLS checks the broker's certificate against its host name
 */
record Amqp10Settings(List<Address> addresses, String username, String password, String vhost,
        SSLContext sslContext, boolean verifyHostname) {

    /** One broker's AMQP 1.0 listener. */
    record Address(String host, int port) {

        @Override
        public String toString() {
            return host + ":" + port;
        }
    }

    Amqp10Settings {
        addresses = List.copyOf(addresses);
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("the AMQP 1.0 connection needs at least one address");
        }
    }

    /**
     * The settings of these services' connection.
     *
     * @param ssl Boot's {@code spring.rabbitmq.ssl}, null where the application has no {@code RabbitProperties}
     * @throws RetryConfigurationException if {@code retry.amqp10.port} is no port, or TLS is on through key or trust
     *     store properties, which only Boot's AMQP 0.9.1 connection factory reads: the AMQP 1.0 connection takes TLS
     *     from an SSL bundle
     */
    static Amqp10Settings of(RetryProperties.Amqp10 amqp10, RabbitConnectionDetails details, RabbitProperties.Ssl ssl,
            String vhost, List<String> services) {
        if (amqp10.getPort() != null && (amqp10.getPort() < 1 || amqp10.getPort() > 65_535)) {
            throw new RetryConfigurationException(List.of("retry.amqp10.port is between 1 and 65535, got "
                    + amqp10.getPort()), "Set retry.amqp10.port to the port of the broker's AMQP 1.0 listener, or "
                    + "leave it unset for spring.rabbitmq's.");
        }
        List<Address> addresses = new ArrayList<>();
        if (amqp10.getHost() != null && !amqp10.getHost().isBlank()) {
            addresses.add(new Address(amqp10.getHost(), amqp10.getPort() != null ? amqp10.getPort()
                    : details.getFirstAddress().port()));
        } else {
            details.getAddresses().forEach(address -> addresses.add(new Address(address.host(),
                    amqp10.getPort() != null ? amqp10.getPort() : address.port())));
        }
        boolean verifyHostname = ssl == null || ssl.isVerifyHostname();
        SslBundle bundle = details.getSslBundle();
        SSLContext context = null;
        if (bundle != null) {
            context = bundle.createSslContext();
        } else if (ssl != null && ssl.determineEnabled()) {
            List<String> uncarried = new ArrayList<>();
            if (ssl.getKeyStore() != null) {
                uncarried.add("spring.rabbitmq.ssl.key-store");
            }
            if (ssl.getTrustStore() != null) {
                uncarried.add("spring.rabbitmq.ssl.trust-store");
            }
            if (!ssl.isValidateServerCertificate()) {
                uncarried.add("spring.rabbitmq.ssl.validate-server-certificate=false");
            }
            if (!uncarried.isEmpty()) {
                throw new RetryConfigurationException(List.of(services.stream().map(name -> "'" + name + "'")
                        .collect(Collectors.joining(", ", services.size() == 1 ? "service " : "services ", ""))
                        + " (protocol: amqp-1.0) connect over AMQP 1.0 with TLS, which takes its keys and trust from "
                        + "an SSL bundle, not from " + String.join(", ", uncarried)), "Move the key and trust "
                        + "stores into an SSL bundle (spring.ssl.bundle.jks.<name>.*) and name it with "
                        + "spring.rabbitmq.ssl.bundle: both connections take it.");
            }
            try {
                context = SSLContext.getDefault();
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("the JVM has no default TLS context, which the AMQP 1.0 connection "
                        + "takes where spring.rabbitmq.ssl names no bundle", e);
            }
        }
        return new Amqp10Settings(addresses, details.getUsername(), details.getPassword(), vhost, context,
                verifyHostname);
    }

    /** The addresses, as {@code host:port,host:port}. */
    String describe() {
        return addresses.stream().map(Address::toString).collect(Collectors.joining(","));
    }

    /** Without the password. */
    @Override
    public String toString() {
        return "AMQP 1.0 to " + describe() + ", virtual host '" + vhost + "' as '" + username + "'"
                + (sslContext == null ? "" : ", TLS");
    }
}
