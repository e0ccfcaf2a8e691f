package io.github.retrytopology.operations.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.operations.broker.BrokerAccess;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plan through an HTTPS management URL. The shared broker serves plain HTTP and is not ours to reconfigure, so
 * the test puts a TLS front of its own before it, with a certificate made by the JDK's keytool.
 */
class HttpsPlanIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private static final char[] PASSWORD = "changeit".toCharArray();

    @TempDir
    static Path directory;

    private static HttpsServer front;
    private static SSLContext trusting;

    @BeforeAll
    static void startTlsFront() throws Exception {
        Path keystore = directory.resolve("front.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "front", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12",
                "-keystore", keystore.toString(), "-storepass", new String(PASSWORD))
                .redirectErrorStream(true).start();
        assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(keytool.exitValue()).as(new String(keytool.getInputStream().readAllBytes())).isZero();
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = java.nio.file.Files.newInputStream(keystore)) {
            store.load(in, PASSWORD);
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, PASSWORD);
        SSLContext serving = SSLContext.getInstance("TLS");
        serving.init(keys.getKeyManagers(), null, null);
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        trusting = SSLContext.getInstance("TLS");
        trusting.init(null, trust.getTrustManagers(), null);

        URI target = broker.broker().managementUri();
        URI plain = URI.create(target.getScheme() + "://" + target.getHost() + ":" + target.getPort());
        HttpClient client = HttpClient.newHttpClient();
        front = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        front.setHttpsConfigurator(new HttpsConfigurator(serving));
        front.createContext("/", exchange -> forward(client, plain, exchange));
        front.start();
    }

    @AfterAll
    static void stopTlsFront() {
        if (front != null) {
            front.stop(0);
        }
    }

    /** Passes a request on to the broker's plain HTTP API as it came, and its answer back. */
    private static void forward(HttpClient client, URI plain, HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            HttpRequest.Builder request = HttpRequest.newBuilder(plain.resolve(exchange.getRequestURI().getRawPath()
                    + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery())))
                    .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
            for (String header : List.of("Authorization", "Content-Type", "Accept")) {
                String value = exchange.getRequestHeaders().getFirst(header);
                if (value != null) {
                    request.header(header, value);
                }
            }
            HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            response.headers().firstValue("Content-Type").ifPresent(type -> exchange.getResponseHeaders().add("Content-Type", type));
            exchange.sendResponseHeaders(response.statusCode(), response.body().length == 0 ? -1 : response.body().length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(response.body());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    @Test
    void plansAndAppliesThroughAnHttpsManagementUrl() throws Exception {
        String https = "https://localhost:" + front.getAddress().getPort();
        BrokerAccess access = BrokerAccess.of(List.of(https), List.of(broker.broker().amqpUri().toString()),
                Optional.empty(), Optional.empty());
        RetrySpec spec = broker.inThisVhost(Specs.load(Path.of("src/test/resources/specs/plan.yml")));

        ApplyReport report = TopologyPlanner.of(access.withSsl(trusting)).apply(spec, ApplyOptions.safe(), line -> { });

        assertThat(report.before().broker()).isEqualTo(URI.create(https + "/"));
        assertThat(report.done()).hasSize(20);
        assertThat(report.after().inSync()).isTrue();
        assertThatThrownBy(() -> TopologyPlanner.of(access).plan(spec))
                .as("the JVM's own trust store does not know the front's certificate")
                .isInstanceOf(SSLHandshakeException.class);
    }
}
