package io.github.retrytopology.operations.broker;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.rabbitmq.http.client.HttpLayer;
import com.rabbitmq.http.client.ParameterizedTypeReference;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import org.jspecify.annotations.Nullable;

/**
 * Hop's HTTP layer for one node, on the JDK's HTTP client, keeping what Hop's own layer drops: the broker's reason
 * when it refuses a request (such as the policy settings it does not recognise), and a connection that was never
 * made, told apart so that another node may take the request. It throws {@link UncheckedIOException}s, which
 * {@link ManagementApi} unwraps: a {@link ManagementApiException} for an error status, a {@link ConnectException}
 * when nothing was sent. A 404 on a read is an error too, as the virtual host or object is missing; on a delete it
 * is not.
 */
final class ManagementTransport implements HttpLayer {

    /** The one JSON mapping of the management API's documents, Hop's classes and this package's records alike. */
    static final ObjectMapper JSON = JsonMapper.builder()
            .disable(MapperFeature.DEFAULT_VIEW_INCLUSION)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            // RabbitMQ writes an empty object, such as a queue's arguments, as [] in some documents.
            .enable(DeserializationFeature.ACCEPT_EMPTY_ARRAY_AS_NULL_OBJECT)
            .defaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
            .build();

    static final Duration TIMEOUT = Duration.ofSeconds(30);
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private final URI base;
    private final HttpClient http;
    private final String authorization;

    ManagementTransport(URI base, HttpClient http, String username, String password) {
        this.base = base;
        this.http = http;
        this.authorization = "Basic " + Base64.getEncoder()
                .encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public <T> T get(URI uri, Class<T> responseClass) {
        return read(uri, JSON.constructType(responseClass));
    }

    @Override
    public <T> T get(URI uri, ParameterizedTypeReference<T> typeReference) {
        return read(uri, JSON.constructType(typeReference.getType()));
    }

    @Override
    public <T> @Nullable T post(URI uri, Object requestBody, @Nullable Class<T> responseClass) {
        byte[] answer = send("POST", uri, body(requestBody), false);
        return responseClass == null ? null : parse(uri, answer, JSON.constructType(responseClass));
    }

    @Override
    public void put(URI uri, Object requestBody) {
        send("PUT", uri, body(requestBody), false);
    }

    @Override
    public void delete(URI uri, Map<String, String> headers) {
        send("DELETE", uri, null, true);
    }

    /** Posts a JSON document as it is, such as definitions to import, which Hop only exports. */
    void postJson(URI uri, String json) {
        send("POST", uri, json.getBytes(StandardCharsets.UTF_8), false);
    }

    /** The body of a GET as the broker sent it, such as definitions to keep in a file. */
    byte[] getBytes(URI uri) {
        return send("GET", uri, null, false);
    }

    private <T> T read(URI uri, JavaType type) {
        return parse(uri, send("GET", uri, null, false), type);
    }

    private static <T> T parse(URI uri, byte[] body, JavaType type) {
        try {
            return JSON.readValue(body, type);
        } catch (IOException e) {
            throw new UncheckedIOException(new IOException("GET " + uri + " answered what is not "
                    + type.getRawClass().getSimpleName() + ": " + e.getMessage(), e));
        }
    }

    private static byte @Nullable [] body(@Nullable Object value) {
        try {
            return value == null ? null : JSON.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot write " + value + " as JSON", e);
        }
    }

    /** Sends one request; a {@link ConnectException} means it was not sent, so that another node may take it. */
    private byte[] send(String method, URI uri, byte @Nullable [] json, boolean absentIsDone) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(TIMEOUT)
                .header("Authorization", authorization)
                .header("Accept", "application/json");
        if (json == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofByteArray(json));
        }
        HttpResponse<byte[]> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpConnectTimeoutException e) {
            ConnectException unanswered = new ConnectException(base + " did not answer within "
                    + CONNECT_TIMEOUT.toSeconds() + " s");
            unanswered.initCause(e);
            throw new UncheckedIOException(unanswered);
        } catch (ConnectException e) {
            ConnectException unanswered = new ConnectException(base + " refused the connection"
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()));
            unanswered.initCause(e);
            throw new UncheckedIOException(unanswered);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new InterruptedIOException(method + " " + uri + " was interrupted"));
        }
        int status = response.statusCode();
        if (status >= 300 && !(absentIsDone && status == 404)) {
            throw new UncheckedIOException(new ManagementApiException(method + " " + uri, status,
                    new String(response.body(), StandardCharsets.UTF_8)));
        }
        return response.body();
    }

    /**
     * The JDK's HTTP client for these base URIs. Without an {@code https} one it gets a TLS context that refuses
     * every use: the JDK's client otherwise makes the JVM's default one, loading its trust store, which cost a
     * command line run 0.3 s cold for {@code http://}.
     */
    static HttpClient client(boolean tls, Optional<SSLContext> ssl) {
        HttpClient.Builder builder = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(CONNECT_TIMEOUT);
        if (tls) {
            ssl.ifPresent(builder::sslContext);
        } else {
            builder.sslContext(new NoTls()).sslParameters(new SSLParameters());
        }
        return builder.build();
    }

    /** The TLS context of a client that only speaks {@code http://}. */
    private static final class NoTls extends SSLContext {

        NoTls() {
            super(new Refusing(), null, "none");
        }
    }

    private static final class Refusing extends SSLContextSpi {

        private static IllegalStateException refused() {
            return new IllegalStateException("this management API client was made for http:// URIs only");
        }

        @Override
        protected void engineInit(KeyManager[] keys, TrustManager[] trust, SecureRandom random) {
        }

        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            throw refused();
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            throw refused();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
            throw refused();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String host, int port) {
            throw refused();
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
            throw refused();
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
            throw refused();
        }
    }
}
