package io.github.retrytopology.operations.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.GetResponse;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.operations.broker.BrokerAccess;
import io.github.retrytopology.runtime.testing.Delivered;
import io.github.retrytopology.runtime.testing.Parked;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console behind a real nginx that authenticates with HTTP basic auth and names its user in
 * {@code X-Remote-User}, as docs/console.md configures it: a replay through the proxy is in the proxy's user's name,
 * whatever the client claims, and a request straight to the console, which names no one, is refused.
 *
 * <p>It needs Debian's {@code nginx}; without it it is skipped, unless {@value NginxProxy#REQUIRED} is set, as
 * {@code .ci/run} sets it after installing it.
 */
class ConsoleProxyIT {

    private static final String HEADER = NginxProxy.HEADER;
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private final HttpClient http = HttpClient.newHttpClient();
    private Service orders;
    private Console console;
    private NginxProxy nginx;
    private URI proxy;
    private Channel channel;

    @BeforeEach
    void start(@TempDir Path directory) throws Exception {
        NginxProxy.assumeInstalled();
        broker.reset();
        RetrySpec spec = broker.inThisVhost(Specs.load(Path.of("../retry-runtime/src/test/resources/specs/fast-retries.yml")));
        orders = spec.service("orders");
        broker.declare(spec);
        channel = broker.connect("console-proxy-it").createChannel();
        channel.confirmSelect();
        BrokerAccess access = BrokerAccess.of(List.of(broker.broker().managementUri().toString()),
                List.of(broker.broker().amqpUri(broker.name())), Optional.empty(), Optional.empty());
        console = Console.start(spec, "fast-retries.yml", access, new ConsoleSettings(InetAddress.getLoopbackAddress(),
                0, false, false, OperatorSource.header(HEADER), 100_000));
        nginx = NginxProxy.start(directory, console.uri().getPort(), "alice", "secret");
        proxy = nginx.uri();
    }

    @AfterEach
    void stop() throws Exception {
        if (nginx != null) {
            nginx.close();
        }
        if (console != null) {
            console.close();
        }
    }

    @Test
    void replaysThroughTheProxyInTheNameOfItsUserWhoeverTheClientClaimsToBe() throws Exception {
        park(3);
        // Mallory, who knows Alice's password only, says she is Bob: the proxy writes over what she says.
        JsonNode session = JSON.readTree(send(asAlice("/api/session").header(HEADER, "bob")
                .header(HEADER.toLowerCase(Locale.ROOT), "bob").build()).body());
        String token = session.path("token").asText();

        HttpResponse<String> started = send(asAlice("/api/services/orders/replay").header(HEADER, "bob")
                .header("Content-Type", "application/json").header(ConsoleApi.TOKEN_HEADER, token)
                .header("Origin", "http://" + proxy.getAuthority())
                .POST(HttpRequest.BodyPublishers.ofString("{\"requestId\":\"r-1\",\"ids\":[\"id-0\",\"id-1\"],"
                        + "\"rate\":100}")).build());
        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
        String job = JSON.readTree(started.body()).path("id").asText();
        await().atMost(Patience.WAIT).until(() -> !JSON.readTree(send(asAlice("/api/jobs/" + job).build()).body())
                .path("state").asText().equals("running"));
        JsonNode done = JSON.readTree(send(asAlice("/api/jobs/" + job).build()).body());

        assertThat(session.path("operator").asText()).isEqualTo("alice");
        assertThat(done.path("state").asText()).isEqualTo("done");
        assertThat(done.path("operator").asText()).isEqualTo("alice");
        assertThat(done.path("replayed").asInt()).isEqualTo(2);
        List<GetResponse> replayed = drain(orders.queue());
        assertThat(replayed).hasSize(2).allSatisfy(message -> assertThat(
                Delivered.headers(message.getProps()).replayedBy()).hasValue("alice (retry console)"));
    }

    @Test
    void refusesARequestStraightToTheConsoleAndOneTheProxyDidNotAuthenticate() throws Exception {
        HttpResponse<String> straight = send(HttpRequest.newBuilder(console.uri().resolve("/api/session")).build());
        HttpResponse<String> noPassword = send(HttpRequest.newBuilder(proxy.resolve("/api/session"))
                .header(HEADER, "alice").build());
        HttpResponse<String> wrongPassword = send(HttpRequest.newBuilder(proxy.resolve("/api/session"))
                .header("Authorization", NginxProxy.basic("alice", "guess")).header(HEADER, "alice").build());

        assertThat(straight.statusCode()).isEqualTo(403);
        assertThat(JSON.readTree(straight.body()).path("error").asText()).isEqualTo("this console serves only "
                + "through its authenticating proxy, which names you in the X-Remote-User header; the request has none");
        assertThat(straight.body()).doesNotContain("token");
        assertThat(List.of(noPassword, wrongPassword)).extracting(HttpResponse::statusCode).containsOnly(401);
        assertThat(noPassword.body()).doesNotContain("token");
    }

    @Test
    void refusesThroughTheProxyAnActionFromAnotherSiteAndAHeaderFoldedOntoTwoLines() throws Exception {
        park(1);
        String token = JSON.readTree(send(asAlice("/api/session").build()).body()).path("token").asText();

        HttpResponse<String> otherSite = send(asAlice("/api/services/orders/purge")
                .header("Content-Type", "application/json").header(ConsoleApi.TOKEN_HEADER, token)
                .header("Origin", "https://evil.example")
                .POST(HttpRequest.BodyPublishers.ofString("{\"requestId\":\"p\",\"confirm\":\"orders\"}")).build());
        String folded = raw(proxy.getPort(), "GET /api/session HTTP/1.1\r\nHost: " + proxy.getAuthority() + "\r\n"
                + "Authorization: " + NginxProxy.basic("alice", "secret") + "\r\n" + HEADER + ": bob\r\n mallory\r\n"
                + "Connection: close\r\n\r\n");

        assertThat(otherSite.statusCode()).isEqualTo(403);
        assertThat(JSON.readTree(otherSite.body()).path("error").asText()).isEqualTo("an action from "
                + "https://evil.example is refused: only this console's page acts");
        assertThat(folded).startsWith("HTTP/1.1 400").doesNotContain("token");
        assertThat(channel.messageCount(orders.parkingLot())).isEqualTo(1);
    }

    private HttpRequest.Builder asAlice(String path) {
        return HttpRequest.newBuilder(proxy.resolve(path)).header("Authorization", NginxProxy.basic("alice", "secret"));
    }

    private HttpResponse<String> send(HttpRequest request) throws Exception {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** A request as it is written, for what {@link HttpClient} refuses to send. */
    private static String raw(int port, String request) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private void park(int count) throws Exception {
        for (int i = 0; i < count; i++) {
            Parked.publish(channel, orders, "order.created", String.valueOf(i), new IOException("timeout after 5 ms"),
                    Instant.now().minusSeconds(60));
        }
        channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
    }

    private List<GetResponse> drain(String queue) throws IOException {
        List<GetResponse> messages = new ArrayList<>();
        await().atMost(Patience.WAIT).until(() -> channel.messageCount(queue) > 0);
        for (GetResponse response = channel.basicGet(queue, true); response != null;
                response = channel.basicGet(queue, true)) {
            messages.add(response);
        }
        return messages;
    }
}
