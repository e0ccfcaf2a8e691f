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
import io.github.retrytopology.runtime.headers.RetryHeaders;
import io.github.retrytopology.runtime.parkinglot.ParkingLot;
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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The console's HTTP API against a real broker, as its page and a careless or hostile client call it. */
class ConsoleApiIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private static final Path SPEC = Path.of("../retry-runtime/src/test/resources/specs/fast-retries.yml");
    private static final Instant NOW = Instant.now();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newHttpClient();
    private RetrySpec spec;
    private Service orders;
    private BrokerAccess access;
    private Console console;
    private String token;
    private Channel channel;

    @BeforeEach
    void start() throws Exception {
        broker.reset();
        spec = broker.inThisVhost(Specs.load(SPEC));
        orders = spec.service("orders");
        broker.declare(spec);
        access = BrokerAccess.of(List.of(broker.broker().managementUri().toString()),
                List.of(broker.broker().amqpUri(broker.name())), Optional.empty(), Optional.empty());
        console = start(false);
        token = get("/api/session").path("token").asText();
        channel = broker.connect("console-it").createChannel();
        channel.confirmSelect();
    }

    private Console start(boolean readOnly) throws IOException {
        return Console.start(spec, "fast-retries.yml", access, ConsoleSettings.local(0, readOnly, "tester", 100_000));
    }

    @AfterEach
    void stop() {
        console.close();
    }

    @Test
    void showsTheSessionAndEachServiceWithItsQueuesDelaysAndLiveDepths() throws Exception {
        park(3, "timeout after 5 ms", "t");

        JsonNode session = get("/api/session");
        assertThat(session.path("readOnly").asBoolean()).isFalse();
        assertThat(session.path("spec").asText()).isEqualTo("fast-retries.yml");
        assertThat(session.path("vhost").asText()).isEqualTo(broker.name());
        assertThat(session.path("operator").asText()).isEqualTo("tester");
        assertThat(session.path("operatorFrom").asText()).isEqualTo("--as");
        assertThat(session.path("token").asText()).hasSize(64);

        JsonNode overview = get("/api/overview");
        assertThat(overview.path("management").path("available").asBoolean()).isTrue();
        JsonNode service = overview.path("services").get(0);
        assertThat(service.path("name").asText()).isEqualTo("orders");
        assertThat(service.path("parkingLot").asText()).isEqualTo("orders.parking-lot");
        assertThat(service.path("delays").asText()).isEqualTo("200ms, 400ms and 600ms");
        assertThat(service.path("tiers")).extracting(tier -> tier.path("queue").asText())
                .containsExactly("orders.retry.1", "orders.retry.2", "orders.retry.3");
        // The management API's counts lag by its statistics interval, 5 s by default.
        await().atMost(Patience.WAIT).untilAsserted(() -> assertThat(get("/api/overview").path("services").get(0)
                .path("parked").asLong()).isEqualTo(3));
        await().atMost(Patience.WAIT).untilAsserted(() -> assertThat(get("/api/overview").path("drift").path("state")
                .asText()).isEqualTo("in-sync"));
        HttpResponse<String> picture = send(HttpRequest.newBuilder(uri("/api/topology.svg")).build());
        assertThat(picture.headers().firstValue("Content-Type")).hasValue("image/svg+xml; charset=utf-8");
        assertThat(picture.body()).contains("<svg", "orders.parking-lot");
    }

    @Test
    void withoutTheManagementApiReadsDepthsOverAmqpAndSaysWhy() throws Exception {
        park(2, "timeout after 5 ms", "t");
        console.close();
        access = BrokerAccess.of(List.of("http://127.0.0.1:1"), List.of(broker.broker().amqpUri(broker.name())),
                Optional.empty(), Optional.empty());
        console = start(false);

        JsonNode overview = get("/api/overview");

        assertThat(overview.path("management").path("available").asBoolean()).isFalse();
        assertThat(overview.path("management").path("error").asText())
                .startsWith("the management API did not answer (")
                .endsWith("depths are read over AMQP, and there are no rates");
        JsonNode service = overview.path("services").get(0);
        assertThat(service.path("parked").asLong()).isEqualTo(2);
        assertThat(service.path("queueDepth").path("ready").asLong()).isZero();
        assertThat(service.path("tiers").get(0).path("messages").asLong()).isZero();
        assertThat(service.path("rates").isNull()).isTrue();
        await().atMost(Patience.WAIT).untilAsserted(() -> assertThat(get("/api/overview").path("drift").path("error")
                .asText()).startsWith("the plan could not be read: "));
        assertThat(get("/api/services/orders/groups").path("groups").get(0).path("count").asLong()).isEqualTo(2);
    }

    @Test
    void saysThePlanIsBeingReadUntilItsFirstReadingIsDoneWithoutCallingItUnknown() throws Exception {
        console.close();
        try (HeldPlanProxy proxy = HeldPlanProxy.of(broker.broker().managementUri())) {
            access = BrokerAccess.of(List.of(proxy.uri()), List.of(broker.broker().amqpUri(broker.name())),
                    Optional.empty(), Optional.empty());
            console = start(false);

            JsonNode whileHeld = get("/api/overview");
            proxy.release();

            assertThat(whileHeld.path("management").path("available").asBoolean()).isTrue();
            assertThat(whileHeld.path("drift").path("state").asText()).isEqualTo("reading");
            assertThat(whileHeld.path("drift").path("error").isNull()).isTrue();
            await().atMost(Patience.WAIT).untilAsserted(() -> assertThat(get("/api/overview").path("drift")
                    .path("state").asText()).isEqualTo("in-sync"));
        }
    }

    @Test
    void saysSoWhenTheSpecsVirtualHostDoesNotExist() throws Exception {
        console.close();
        spec = spec.inVhost("no-such-vhost-" + broker.name());
        access = BrokerAccess.of(List.of(broker.broker().managementUri().toString()),
                List.of(broker.broker().amqpUri().toString()), Optional.empty(), Optional.empty());
        console = start(false);

        JsonNode overview = get("/api/overview");
        HttpResponse<String> groups = send(HttpRequest.newBuilder(uri("/api/services/orders/groups")).build());

        assertThat(overview.path("management").path("error").asText()).isEqualTo("the management API knows no "
                + "virtual host '" + spec.vhost() + "': depths are read over AMQP, and there are no rates");
        assertThat(overview.path("services").get(0).path("parked").isNull()).isTrue();
        assertThat(groups.statusCode()).isEqualTo(502);
        assertThat(error(groups)).contains("vhost " + spec.vhost() + " not found");
        await().atMost(Patience.WAIT).untilAsserted(() -> assertThat(get("/api/overview").path("drift").path("error")
                .asText()).contains("the virtual host '" + spec.vhost() + "' does not exist"));
    }

    @Test
    void groupsTheParkingLotAndShowsTheMessagesOfAGroupAndOneMessageWhole() throws Exception {
        park(4, "timeout after 500 ms", "t");
        park(2, "order 17 is locked", "l");

        JsonNode groups = get("/api/services/orders/groups");

        assertThat(groups.path("parked").asLong()).isEqualTo(6);
        assertThat(groups.path("complete").asBoolean()).isTrue();
        JsonNode timeouts = groups.path("groups").get(0);
        assertThat(timeouts.path("message").asText()).isEqualTo("timeout after # ms");
        assertThat(timeouts.path("exception").asText()).isEqualTo("java.io.IOException");
        assertThat(timeouts.path("reason").asText()).isEqualTo("attempts-exhausted");
        assertThat(timeouts.path("count").asLong()).isEqualTo(4);
        String key = timeouts.path("key").asText();

        JsonNode listed = get("/api/services/orders/groups/" + key + "/messages?limit=3");
        assertThat(listed.path("group").path("count").asLong()).isEqualTo(4);
        assertThat(listed.path("messages")).hasSize(3);
        assertThat(listed.path("more").asBoolean()).isTrue();
        assertThat(listed.path("messages").get(0).path("exceptionMessage").asText()).isEqualTo("timeout after 500 ms");

        JsonNode message = get("/api/services/orders/messages/id-t0");
        assertThat(message.path("attempts").asInt()).isEqualTo(4);
        assertThat(message.path("body").path("format").asText()).isEqualTo("text");
        assertThat(message.path("body").path("text").asText()).isEqualTo("t0");
        assertThat(message.path("headers").path(RetryHeaders.EXCEPTION).asText()).isEqualTo("java.io.IOException");
        assertThat(message.path("properties").path("messageId").asText()).isEqualTo("id-t0");
        assertParked(6);
    }

    @Test
    void replaysAGroupAtTheRateAskedOnceThoughTheRequestIsSentAgainAndAgain() throws Exception {
        park(5, "timeout after 500 ms", "t");
        park(2, "order 17 is locked", "l");
        String key = get("/api/services/orders/groups").path("groups").get(0).path("key").asText();
        String request = "{\"requestId\":\"r-1\",\"group\":\"" + key + "\",\"rate\":20,\"expected\":5}";

        // A double click and a retried request: three requests with one id, two of them at the same moment.
        CompletableFuture<HttpResponse<String>> first = http.sendAsync(action("/api/services/orders/replay", request),
                HttpResponse.BodyHandlers.ofString());
        CompletableFuture<HttpResponse<String>> second = http.sendAsync(action("/api/services/orders/replay", request),
                HttpResponse.BodyHandlers.ofString());
        String job = JSON.readTree(first.get().body()).path("id").asText();
        assertThat(first.get().statusCode()).isEqualTo(202);
        assertThat(JSON.readTree(second.get().body()).path("id").asText()).isEqualTo(job);
        JsonNode done = awaitJob(job);
        HttpResponse<String> again = send(action("/api/services/orders/replay", request));

        assertThat(JSON.readTree(again.body()).path("id").asText()).isEqualTo(job);
        assertThat(done.path("state").asText()).isEqualTo("done");
        assertThat(done.path("replayed").asInt()).isEqualTo(5);
        assertThat(done.path("expected").asInt()).isEqualTo(5);
        assertThat(Duration.between(Instant.parse(done.path("startedAt").asText()),
                Instant.parse(done.path("finishedAt").asText())))
                .as("5 messages at 20 a second: 4 intervals of 50 ms at least").isGreaterThanOrEqualTo(Duration.ofMillis(200));
        List<GetResponse> replayed = drain(orders.queue());
        assertThat(replayed).hasSize(5);
        assertThat(replayed).allSatisfy(message -> {
            RetryHeaders headers = Delivered.headers(message.getProps());
            assertThat(headers.replayedBy()).hasValue("tester (retry console)");
            assertThat(headers.attempts()).isZero();
        });
        assertParked(2);
        assertThat(get("/api/jobs").path("jobs")).hasSize(1);
        assertThat(done.path("operator").asText()).isEqualTo("tester");
    }

    @Test
    void replaysNoMoreOfAGroupThanItsExpectedCountSoMessagesParkedSinceStayParked() throws Exception {
        park(3, "timeout after 500 ms", "t");
        JsonNode group = get("/api/services/orders/groups").path("groups").get(0);
        park(2, "timeout after 700 ms", "u"); // parked into the same group after the count was read

        JsonNode counted = awaitJob(JSON.readTree(send(action("/api/services/orders/replay", "{\"requestId\":\"r-3\","
                + "\"group\":\"" + group.path("key").asText() + "\",\"rate\":100,\"expected\":"
                + group.path("count").asLong() + "}")).body()).path("id").asText());

        assertThat(counted.path("state").asText()).isEqualTo("done");
        assertThat(counted.path("replayed").asInt()).isEqualTo(3);
        assertThat(drain(orders.queue())).extracting(message -> message.getProps().getMessageId())
                .containsExactlyInAnyOrder("id-t0", "id-t1", "id-t2");
        assertParked(2);

        // Fewer than expected: it replays those there are, and says so.
        JsonNode fewer = awaitJob(JSON.readTree(send(action("/api/services/orders/replay", "{\"requestId\":\"r-4\","
                + "\"group\":\"" + group.path("key").asText() + "\",\"rate\":100,\"expected\":5}")).body())
                .path("id").asText());

        assertThat(fewer.path("state").asText()).isEqualTo("done");
        assertThat(fewer.path("expected").asInt()).isEqualTo(5);
        assertThat(fewer.path("replayed").asInt()).isEqualTo(2);
        assertParked(0);
    }

    @Test
    void replaysChosenMessagesAndRefusesAnIdUsedForAnotherAction() throws Exception {
        park(3, "timeout after 500 ms", "t");

        HttpResponse<String> started = send(action("/api/services/orders/replay",
                "{\"requestId\":\"r-2\",\"ids\":[\"id-t0\",\"id-t2\"],\"rate\":100}"));
        JsonNode done = awaitJob(JSON.readTree(started.body()).path("id").asText());
        HttpResponse<String> reused = send(action("/api/services/orders/replay",
                "{\"requestId\":\"r-2\",\"ids\":[\"id-t1\"],\"rate\":100}"));

        assertThat(done.path("replayed").asInt()).isEqualTo(2);
        assertThat(drain(orders.queue())).extracting(message -> message.getProps().getMessageId())
                .containsExactlyInAnyOrder("id-t0", "id-t2");
        assertThat(reused.statusCode()).isEqualTo(409);
        assertThat(error(reused)).contains("request id r-2 was used for another action");
        assertParked(1);
    }

    @Test
    void purgesOnlyWhenConfirmedWithTheServicesName() throws Exception {
        park(3, "timeout after 500 ms", "t");

        HttpResponse<String> unconfirmed = send(action("/api/services/orders/purge",
                "{\"requestId\":\"p-1\",\"confirm\":\"audit\"}"));
        assertThat(unconfirmed.statusCode()).isEqualTo(400);
        assertThat(error(unconfirmed)).contains("confirm it with \"confirm\": \"orders\"");
        assertParked(3);

        HttpResponse<String> confirmed = send(action("/api/services/orders/purge",
                "{\"requestId\":\"p-2\",\"confirm\":\"orders\"}"));
        JsonNode done = awaitJob(JSON.readTree(confirmed.body()).path("id").asText());
        assertThat(done.path("purged").asLong()).isEqualTo(3);
        assertParked(0);
    }

    @Test
    void refusesAnActionWithoutTheTokenFromAnotherOriginOrNotAsJson() throws Exception {
        park(1, "timeout after 500 ms", "t");
        String body = "{\"requestId\":\"x\",\"confirm\":\"orders\"}";
        URI purge = uri("/api/services/orders/purge");

        HttpResponse<String> noToken = send(HttpRequest.newBuilder(purge).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
        HttpResponse<String> wrongToken = send(HttpRequest.newBuilder(purge).header("Content-Type", "application/json")
                .header(ConsoleApi.TOKEN_HEADER, "0".repeat(64)).POST(HttpRequest.BodyPublishers.ofString(body)).build());
        HttpResponse<String> form = send(HttpRequest.newBuilder(purge)
                .header("Content-Type", "application/x-www-form-urlencoded").header(ConsoleApi.TOKEN_HEADER, token)
                .POST(HttpRequest.BodyPublishers.ofString("requestId=x&confirm=orders")).build());
        HttpResponse<String> otherOrigin = send(HttpRequest.newBuilder(purge).header("Content-Type", "application/json")
                .header(ConsoleApi.TOKEN_HEADER, token).header("Origin", "http://evil.example")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
        HttpResponse<String> crossSite = send(HttpRequest.newBuilder(purge).header("Content-Type", "application/json")
                .header(ConsoleApi.TOKEN_HEADER, token).header("Sec-Fetch-Site", "cross-site")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());

        assertThat(List.of(noToken, wrongToken, otherOrigin, crossSite)).extracting(HttpResponse::statusCode)
                .containsOnly(403);
        assertThat(error(noToken)).contains("needs the X-Retry-Console-Token header");
        assertThat(form.statusCode()).isEqualTo(415);
        assertParked(1);
        assertThat(noToken.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(policy ->
                assertThat(policy).contains("default-src 'self'", "frame-ancestors 'none'"));
    }

    @Test
    void refusesARequestForAnotherHostNameAsAPageThatRebindsItsNameWouldSend() throws Exception {
        String answer = raw("GET /api/session", "evil.example:" + console.uri().getPort());

        assertThat(answer).startsWith("HTTP/1.1 403").contains("this console answers requests for").doesNotContain(token);
    }

    @Test
    void behindAProxyActsInTheNameOfEachRequestsUserAndRefusesARequestThatNamesNoOne() throws Exception {
        park(3, "timeout after 500 ms", "t");
        console.close();
        console = Console.start(spec, "fast-retries.yml", access, new ConsoleSettings(InetAddress.getLoopbackAddress(),
                0, false, false, OperatorSource.header("X-Remote-User"), 100_000));

        HttpResponse<String> anonymous = send(HttpRequest.newBuilder(uri("/api/session")).build());
        HttpResponse<String> page = send(HttpRequest.newBuilder(uri("/")).build());
        JsonNode alice = JSON.readTree(send(HttpRequest.newBuilder(uri("/api/session"))
                .header("X-Remote-User", "alice").build()).body());
        JsonNode bob = JSON.readTree(send(HttpRequest.newBuilder(uri("/api/session"))
                .header("X-Remote-User", "bob").build()).body());

        assertThat(List.of(anonymous, page)).extracting(HttpResponse::statusCode).containsOnly(403);
        assertThat(error(anonymous)).isEqualTo("this console serves only through its authenticating proxy, which "
                + "names you in the X-Remote-User header; the request has none");
        assertThat(anonymous.body()).doesNotContain("token");
        assertThat(alice.path("operator").asText()).isEqualTo("alice");
        assertThat(alice.path("operatorFrom").asText()).isEqualTo("the proxy's X-Remote-User header");
        assertThat(alice.path("token").asText()).hasSize(64).isNotEqualTo(bob.path("token").asText());

        // Alice's token does not act for Bob, nor does a request that names no one.
        token = alice.path("token").asText();
        String replay = "{\"requestId\":\"r-a\",\"ids\":[\"id-t0\",\"id-t1\"],\"rate\":100}";
        HttpResponse<String> asBob = send(HttpRequest.newBuilder(action("/api/services/orders/replay", replay),
                (name, value) -> true).header("X-Remote-User", "bob").build());
        HttpResponse<String> asNoOne = send(action("/api/services/orders/replay", replay));
        assertThat(List.of(asBob, asNoOne)).extracting(HttpResponse::statusCode).containsOnly(403);
        assertThat(error(asBob)).contains("needs the X-Retry-Console-Token header of this console's page");

        JsonNode replayed = awaitJob(JSON.readTree(send(HttpRequest.newBuilder(action("/api/services/orders/replay",
                replay), (name, value) -> true).header("X-Remote-User", "alice").build()).body()).path("id").asText(),
                "alice");
        token = bob.path("token").asText();
        // The same request id from another person is another action, not Alice's sent again.
        HttpResponse<String> reused = send(HttpRequest.newBuilder(action("/api/services/orders/replay", replay),
                (name, value) -> true).header("X-Remote-User", "bob").build());
        JsonNode purged = awaitJob(JSON.readTree(send(HttpRequest.newBuilder(action("/api/services/orders/purge",
                "{\"requestId\":\"p-b\",\"confirm\":\"orders\"}"), (name, value) -> true)
                .header("X-Remote-User", "bob").build()).body()).path("id").asText(), "bob");

        assertThat(replayed.path("operator").asText()).isEqualTo("alice");
        assertThat(replayed.path("replayed").asInt()).isEqualTo(2);
        assertThat(drain(orders.queue())).allSatisfy(message -> assertThat(
                Delivered.headers(message.getProps()).replayedBy()).hasValue("alice (retry console)"));
        assertThat(reused.statusCode()).isEqualTo(409);
        assertThat(purged.path("operator").asText()).isEqualTo("bob");
        assertThat(purged.path("purged").asLong()).isEqualTo(1);
    }

    @Test
    void behindAProxyRefusesAHeaderThatIsNotOnePersonsName() throws Exception {
        console.close();
        console = Console.start(spec, "fast-retries.yml", access, new ConsoleSettings(InetAddress.getLoopbackAddress(),
                0, false, false, OperatorSource.header("X-Remote-User"), 100_000));
        String host = "127.0.0.1:" + console.uri().getPort();

        String twice = raw("GET /api/session", host, "X-Remote-User: alice\r\nX-Remote-User: mallory\r\n");
        String folded = raw("GET /api/session", host, "X-Remote-User: alice\r\n mallory\r\n");
        String control = raw("GET /api/session", host, "X-Remote-User: al\u0001ice\r\n");
        String latin = raw("GET /api/session", host, "X-Remote-User: al\u00efce\r\n");
        String huge = raw("GET /api/session", host, "X-Remote-User: " + "x".repeat(10_240) + "\r\n");
        String empty = raw("GET /api/session", host, "X-Remote-User: \r\n");

        assertThat(twice).startsWith("HTTP/1.1 403").contains("names its operator 2 times in the X-Remote-User header");
        assertThat(List.of(control, latin, huge, empty)).allSatisfy(answer -> assertThat(answer)
                .startsWith("HTTP/1.1 403").contains("the X-Remote-User header is not an operator's name")
                .doesNotContain("token"));
        assertThat(control).contains("got 'al\\\\u0001ice'");
        assertThat(huge).contains("… (10240 characters)");
        // The JDK's server unfolds an obsolete folded line into one, so no line break reaches a name; nginx refuses
        // such a request itself (ConsoleProxyIT).
        assertThat(folded).startsWith("HTTP/1.1 200").contains("\"operator\":\"alice mallory\"");
    }

    /** A request as it is written, for what {@link HttpClient} refuses to send: another Host, a broken escape. */
    private String raw(String requestLine, String host) throws IOException {
        return raw(requestLine, host, "");
    }

    /** The same, with more header lines, each ending in CRLF. */
    private String raw(String requestLine, String host, String headers) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), console.uri().getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write((requestLine + " HTTP/1.1\r\nHost: " + host + "\r\n" + headers + "Connection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aReadOnlyConsoleShowsAndRefusesEveryAction() throws Exception {
        park(2, "timeout after 500 ms", "t");
        console.close();
        console = start(true);
        token = get("/api/session").path("token").asText();

        HttpResponse<String> replay = send(action("/api/services/orders/replay",
                "{\"requestId\":\"r\",\"ids\":[\"id-t0\"],\"rate\":10}"));
        HttpResponse<String> purge = send(action("/api/services/orders/purge", "{\"requestId\":\"p\",\"confirm\":\"orders\"}"));

        assertThat(get("/api/session").path("readOnly").asBoolean()).isTrue();
        assertThat(get("/api/services/orders/groups").path("groups").get(0).path("count").asLong()).isEqualTo(2);
        assertThat(List.of(replay, purge)).extracting(HttpResponse::statusCode).containsOnly(403);
        assertThat(error(replay)).contains("read-only");
        assertParked(2);
    }

    @Test
    void answersBadRequestsWithASentenceAndChangesNothing() throws Exception {
        park(1, "timeout after 500 ms", "t");
        List<String[]> cases = new ArrayList<>();
        cases.add(new String[] {"{", "400", "not JSON"});
        cases.add(new String[] {"[1]", "400", "a JSON object"});
        cases.add(new String[] {"{\"group\":\"g\",\"rate\":1}", "400", "requestId is a non-empty string; got nothing"});
        cases.add(new String[] {"{\"requestId\":\"a\",\"group\":\"g\",\"rate\":0}", "400", "rate is a number"});
        cases.add(new String[] {"{\"requestId\":\"a\",\"group\":\"g\",\"rate\":\"fast\"}", "400", "got \"fast\""});
        cases.add(new String[] {"{\"requestId\":\"a\",\"group\":\"g\",\"ids\":[\"x\"],\"rate\":1}", "400", "either a group or ids"});
        cases.add(new String[] {"{\"requestId\":\"a\",\"ids\":[],\"rate\":1}", "400", "ids is a list of 1 to"});
        cases.add(new String[] {"{\"requestId\":\"a\",\"ids\":[7],\"rate\":1}", "400", "each id is a non-empty string; got 7"});
        cases.add(new String[] {"{\"requestId\":\"a\",\"group\":\"g\",\"rate\":1,\"expected\":0}", "400",
                "expected is a whole number of messages, 1 or more; got 0"});
        cases.add(new String[] {"{\"requestId\":\"a\",\"group\":\"g\",\"rate\":1,\"expected\":\"5\"}", "400",
                "got \"5\""});
        cases.add(new String[] {"{\"requestId\":\"a\",\"group\":\"g\",\"rate\":1,\"expected\":2.5}", "400", "got 2.5"});
        cases.add(new String[] {"{\"requestId\":\"a\",\"ids\":[\"x\"],\"rate\":1,\"expected\":1}", "400",
                "expected goes with a group"});
        for (String[] bad : cases) {
            HttpResponse<String> answer = send(action("/api/services/orders/replay", bad[0]));
            assertThat(answer.statusCode()).as(bad[0]).isEqualTo(Integer.parseInt(bad[1]));
            assertThat(error(answer)).as(bad[0]).contains(bad[2]);
        }
        assertThat(error(send(action("/api/services/nobody/replay", "{}")))).isEqualTo("no service 'nobody' in fast-retries.yml");
        assertThat(send(HttpRequest.newBuilder(uri("/api/jobs/nope")).build()).statusCode()).isEqualTo(404);
        assertThat(send(HttpRequest.newBuilder(uri("/api/services/orders/messages/nope")).build()).statusCode())
                .isEqualTo(404);
        assertThat(error(send(HttpRequest.newBuilder(uri("/api/services/orders/groups/k/messages?limit=-1")).build())))
                .contains("limit is a whole number from 1 to");
        HttpResponse<String> getAction = send(HttpRequest.newBuilder(uri("/api/services/orders/replay")).build());
        assertThat(getAction.statusCode()).isEqualTo(405);
        assertThat(getAction.headers().firstValue("Allow")).hasValue("POST");
        assertThat(raw("GET /api/services/orders/messages/%zz", "127.0.0.1:" + console.uri().getPort()))
                .as("the JDK's server refuses it before the console sees it").startsWith("HTTP/1.1 400");
        assertThat(get("/api/jobs").path("jobs")).isEmpty();
        assertParked(1);
    }

    @Test
    void findsAMessageWhoseIdHoldsCharactersAPathEscapes() throws Exception {
        park(1, "timeout after 500 ms", "a/b c+d%");

        JsonNode message = get("/api/services/orders/messages/" + java.net.URLEncoder.encode("id-a/b c+d%",
                StandardCharsets.UTF_8).replace("+", "%20"));

        assertThat(message.path("id").asText()).isEqualTo("id-a/b c+d%");
    }

    private void park(int count, String exceptionMessage, String prefix) throws Exception {
        for (int i = 0; i < count; i++) {
            String body = prefix + (count == 1 && prefix.contains("/") ? "" : String.valueOf(i));
            Parked.publish(channel, orders, "order.created", body, new IOException(exceptionMessage), NOW.minusSeconds(60));
        }
        channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
    }

    private JsonNode awaitJob(String id) throws Exception {
        await().atMost(Patience.WAIT).until(() -> !get("/api/jobs/" + id).path("state").asText().equals("running"));
        return get("/api/jobs/" + id);
    }

    /** The same, asked by this user of a console behind a proxy. */
    private JsonNode awaitJob(String id, String operator) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(uri("/api/jobs/" + id)).header("X-Remote-User", operator).build();
        await().atMost(Patience.WAIT).until(() -> !JSON.readTree(send(request).body()).path("state").asText()
                .equals("running"));
        return JSON.readTree(send(request).body());
    }

    private void assertParked(long expected) throws IOException {
        ParkingLot parkingLot = ParkingLot.of(broker.connect("count"), orders);
        await().atMost(Patience.WAIT).untilAsserted(() -> assertThat(parkingLot.count()).isEqualTo(expected));
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

    private URI uri(String path) {
        return console.uri().resolve(path);
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri(path)).build());
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private HttpRequest action(String path, String body) {
        return HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .header(ConsoleApi.TOKEN_HEADER, token).POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private HttpResponse<String> send(HttpRequest request) throws Exception {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static String error(HttpResponse<String> response) throws IOException {
        return JSON.readTree(response.body()).path("error").asText();
    }
}
