package io.github.retrytopology.operations.broker;

import static java.util.Objects.requireNonNull;

import com.rabbitmq.client.Address;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;

/**
 * How to reach a broker, or the nodes of one cluster: its management API (which plan and apply read and change)
 * and its AMQP listeners (which only {@code apply --migrate} needs, to move messages), with the credentials of
 * each. Credentials never appear in {@link #toString()}, in messages or in a plan.
 *
 * @param managementUris the management API's base URIs, tried in order, without credentials
 * @param management the management API's user
 * @param amqpUris the AMQP URIs, tried in order, without credentials
 * @param amqp the AMQP user
 * @param ssl the TLS context for {@code https} and {@code amqps}; empty for the JVM's default one
 */
public record BrokerAccess(List<URI> managementUris, Credentials management, List<URI> amqpUris, Credentials amqp,
        Optional<SSLContext> ssl) {

    /** The AMQP URI when none is given. */
    public static final String DEFAULT_AMQP_URI = "amqp://localhost:5672";

    private static final Credentials GUEST = new Credentials("guest", "guest");

    public BrokerAccess {
        managementUris = List.copyOf(managementUris);
        amqpUris = List.copyOf(amqpUris);
        if (managementUris.isEmpty() || amqpUris.isEmpty()) {
            throw new IllegalArgumentException("a broker needs a management URI and an AMQP URI");
        }
        requireNonNull(management, "management");
        requireNonNull(amqp, "amqp");
        requireNonNull(ssl, "ssl");
    }

    /**
     * Works out how to reach a broker from what a person gave, as the command line and the plugin take it.
     *
     * @param managementUris management URIs, each possibly a comma-separated list, possibly with
     *     {@code user:password@}; none for {@code http://HOST:15672} ({@code https://HOST:15671} for
     *     {@code amqps}) for the HOST of each AMQP URI
     * @param amqpUris AMQP URIs, likewise; none for {@value #DEFAULT_AMQP_URI}
     * @param username the user of both, if given apart from the URIs: it wins over theirs
     * @param password its password, required with a username; alone, it goes with the URIs' user
     * @throws IllegalArgumentException naming the URI that is not one, without its credentials
     */
    public static BrokerAccess of(Collection<String> managementUris, Collection<String> amqpUris,
            Optional<String> username, Optional<String> password) {
        List<URI> amqp = uris(amqpUris, "AMQP");
        if (amqp.isEmpty()) {
            amqp = List.of(URI.create(DEFAULT_AMQP_URI));
        }
        for (URI uri : amqp) {
            if (!"amqp".equalsIgnoreCase(uri.getScheme()) && !"amqps".equalsIgnoreCase(uri.getScheme())) {
                throw new IllegalArgumentException("an AMQP URI is amqp:// or amqps://, not " + ManagementApi.withoutCredentials(uri));
            }
        }
        List<URI> management = uris(managementUris, "management");
        if (management.isEmpty()) {
            management = amqp.stream().map(BrokerAccess::managementOf).distinct().toList();
        }
        if (username.isPresent() && password.isEmpty()) {
            throw new IllegalArgumentException("a username needs its password");
        }
        Credentials managementUser = credentials(username, password, management, amqp);
        Credentials amqpUser = credentials(username, password, amqp, management);
        return new BrokerAccess(management.stream().map(ManagementApi::withoutCredentials).toList(), managementUser,
                amqp.stream().map(ManagementApi::withoutCredentials).toList(), amqpUser, Optional.empty());
    }

    /** The same, with a TLS context of one's own for {@code https} and {@code amqps}. */
    public BrokerAccess withSsl(SSLContext context) {
        return new BrokerAccess(managementUris, management, amqpUris, amqp, Optional.of(context));
    }

    /** The management API. */
    public ManagementApi managementApi() {
        return ManagementApi.of(managementUris, management.username(), management.password(), ssl);
    }

    /**
     * A connection to a virtual host, to the first AMQP URI that answers, without automatic recovery.
     *
     * @throws IOException if none answers, or the broker refuses the user
     */
    public Connection connect(String vhost, String clientName) throws IOException {
        return connect(vhost, clientName, Duration.ofMillis(ConnectionFactory.DEFAULT_CONNECTION_TIMEOUT));
    }

    /**
     * The same, giving up on a listener that has not answered within {@code timeout}.
     *
     * @throws IOException if none answers in time, or the broker refuses the user
     */
    public Connection connect(String vhost, String clientName, Duration timeout) throws IOException {
        ConnectionFactory factory = new ConnectionFactory();
        int millis = Math.toIntExact(timeout.toMillis());
        factory.setConnectionTimeout(millis);
        factory.setHandshakeTimeout(Math.min(millis, ConnectionFactory.DEFAULT_HANDSHAKE_TIMEOUT));
        factory.setUsername(amqp.username());
        factory.setPassword(amqp.password());
        factory.setVirtualHost(vhost);
        factory.setAutomaticRecoveryEnabled(false);
        URI first = amqpUris.get(0);
        if ("amqps".equalsIgnoreCase(first.getScheme())) {
            try {
                factory.useSslProtocol(ssl.isPresent() ? ssl.get() : SSLContext.getDefault());
            } catch (NoSuchAlgorithmException e) {
                throw new IOException("this JVM has no TLS", e);
            }
            factory.enableHostnameVerification();
        }
        List<Address> addresses = amqpUris.stream()
                .map(uri -> new Address(host(uri), uri.getPort() >= 0 ? uri.getPort()
                        : "amqps".equalsIgnoreCase(uri.getScheme()) ? ConnectionFactory.DEFAULT_AMQP_OVER_SSL_PORT
                        : ConnectionFactory.DEFAULT_AMQP_PORT))
                .toList();
        try {
            return factory.newConnection(addresses, clientName);
        } catch (TimeoutException e) {
            throw new IOException("no AMQP listener answered in time: " + amqpUris, e);
        }
    }

    @Override
    public String toString() {
        return "BrokerAccess[management " + managementUris + " as " + management.username() + ", AMQP " + amqpUris + " as "
                + amqp.username() + "]";
    }

    /**
     * URIs from a list whose items may be comma-separated lists, as environment variables hold several.
     *
     * @throws IllegalArgumentException naming the one that is not a URI, without its credentials
     */
    public static List<URI> uris(Collection<String> values, String what) {
        List<URI> uris = new ArrayList<>();
        for (String value : values) {
            if (value == null) {
                continue;
            }
            for (String item : value.split(",")) {
                String text = item.strip();
                if (text.isEmpty()) {
                    continue;
                }
                try {
                    URI uri = new URI(text);
                    if (uri.getScheme() == null || uri.getHost() == null) {
                        throw new URISyntaxException(redact(text), "no scheme or host");
                    }
                    uris.add(uri);
                } catch (URISyntaxException e) {
                    throw new IllegalArgumentException("'" + redact(text) + "' is not a " + what + " URI: " + e.getReason());
                }
            }
        }
        return uris;
    }

    /** A URI's text with the password it may hold replaced by stars, for messages. */
    public static String redact(String uri) {
        return uri.replaceFirst("^([a-zA-Z][a-zA-Z0-9+.-]*://[^:/@]*):[^@/]*@", "$1:***@");
    }

    /** The management API of the node an AMQP URI names, on its default port. */
    private static URI managementOf(URI amqp) {
        boolean tls = "amqps".equalsIgnoreCase(amqp.getScheme());
        return URI.create((tls ? "https://" : "http://") + amqp.getRawAuthority().replaceFirst("^.*@", "")
                .replaceFirst(":\\d+$", "") + (tls ? ":15671" : ":15672"));
    }

    private static String host(URI uri) {
        return uri.getHost();
    }

    private static Credentials credentials(Optional<String> username, Optional<String> password, List<URI> own,
            List<URI> other) {
        if (username.isPresent()) {
            return new Credentials(username.get(), password.orElseThrow());
        }
        Optional<Credentials> inUri = Optional.<Credentials>empty()
                .or(() -> fromUris(own))
                .or(() -> fromUris(other));
        if (password.isPresent()) {
            return new Credentials(inUri.map(Credentials::username).orElse(GUEST.username()), password.get());
        }
        return inUri.orElse(GUEST);
    }

    private static Optional<Credentials> fromUris(List<URI> uris) {
        return uris.stream()
                .map(URI::getRawUserInfo)
                .filter(info -> info != null && !info.isEmpty())
                .findFirst()
                .map(info -> {
                    String[] parts = info.split(":", 2);
                    return new Credentials(decode(parts[0]), parts.length > 1 ? decode(parts[1]) : "");
                });
    }

    private static String decode(String text) {
        return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** A user and password; {@link #toString()} hides the password. */
    public record Credentials(String username, String password) {

        public Credentials {
            requireNonNull(username, "username");
            requireNonNull(password, "password");
        }

        @Override
        public String toString() {
            return "Credentials[username=" + username + ", password=***]";
        }
    }
}
