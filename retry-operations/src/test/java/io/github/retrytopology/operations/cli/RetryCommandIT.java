package io.github.retrytopology.operations.cli;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.operations.broker.ManagementApi;
import io.github.retrytopology.runtime.parkinglot.ParkingLot;
import io.github.retrytopology.runtime.testing.Delivered;
import io.github.retrytopology.runtime.testing.Parked;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The command line against a real broker: the parking-lot tools, and plan and apply as a pipeline runs them. */
class RetryCommandIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");
    private static final Path SPEC = Path.of("../retry-runtime/src/test/resources/specs/fast-retries.yml");
    private static final ObjectMapper JSON = new ObjectMapper();

    private String uri;
    private String management;

    @BeforeEach
    void emptyVhost() throws IOException {
        broker.reset();
        uri = broker.broker().amqpUri(broker.name());
        management = broker.broker().managementUri().toString();
    }

    @Test
    void listsWhatXDeathSaysOfAMessageTheBrokerParkedItselfAndTwinsOnce() throws Exception {
        RetrySpec spec = Specs.load(SPEC);
        Service orders = spec.service("orders");
        broker.declare(spec);
        ParkingLot parkingLot = ParkingLot.of(broker.connect("cli-it"), orders);
        try (var connection = broker.connect("expired")) {
            Channel channel = connection.createChannel();
            channel.confirmSelect();
            channel.basicPublish("test.events", "order.created", true, new AMQP.BasicProperties.Builder()
                    .messageId("stale").expiration("50").build(), "stale".getBytes(StandardCharsets.UTF_8));
            channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
        }
        assertParked(parkingLot, 1);
        park(orders, "order.created", "twin", new IllegalStateException("boom"), NOW.minusSeconds(90));
        park(orders, "order.created", "twin", new IllegalStateException("boom"), NOW.minusSeconds(90));
        assertParked(parkingLot, 3);

        Result list = run("--uri", uri, "--spec", SPEC.toString(), "list", "orders");
        Result replay = run("--uri", uri, "--spec", SPEC.toString(), "replay", "orders", "--exception",
                "IllegalStateException");

        assertThat(list.out()).contains("expired: the broker dead-lettered it from orders",
                "its own expiration of 50 ms passed before a consumer took it",
                "2 copies of this message and attempt are parked (twins); a replay sends one")
                .doesNotContain("unknown");
        assertThat(replay.out()).contains("replayed 1 of 3 parked messages looked at to orders; dropped 1 twin copies");
    }

    @Test
    void aPersonOnCallUsesTheParkingLotFromTheCommandLine() throws Exception {
        RetrySpec spec = Specs.load(SPEC);
        Service orders = spec.service("orders");
        broker.declare(spec);
        ParkingLot parkingLot = ParkingLot.of(broker.connect("cli-it"), orders);
        park(orders, "order.created", "{\"id\":7}", new IllegalStateException("boom"), NOW.minusSeconds(90));

        Result list = run("--uri", uri, "--spec", SPEC.toString(), "list", "orders");
        assertParked(parkingLot, 1);
        Result dryRun = run("--uri", uri, "--spec", SPEC.toString(), "replay", "orders", "--exception",
                "IllegalStateException", "--dry-run");
        assertParked(parkingLot, 1);
        Result refusedPurge = run("--uri", uri, "--spec", SPEC.toString(), "purge", "orders");
        Result replay = run("--uri", uri, "--spec", SPEC.toString(), "replay", "orders", "--older-than", "1m");
        Result unknown = run("--uri", uri, "--spec", SPEC.toString(), "list", "nobody");

        assertThat(list.exitCode()).isZero();
        assertThat(list.out()).contains("orders.parking-lot: 1 parked", "attempts-exhausted: attempt 4 of 4 failed",
                "routing key: order.created", "exception: java.lang.IllegalStateException: boom", "body: {\"id\":7} (8 bytes");
        assertThat(list.out()).containsPattern("parked \\S+ \\(1m30s ago\\)");
        assertThat(dryRun.out()).contains("dry run: would replay 1 of 1");
        assertThat(refusedPurge.exitCode()).isEqualTo(2);
        assertThat(refusedPurge.err()).contains("purge would delete 1 parked messages of orders for good; run it again with --yes");
        assertThat(replay.out()).contains("replayed 1 of 1 parked messages looked at to orders");
        assertThat(unknown.exitCode()).isEqualTo(1);
        assertThat(unknown.err()).contains("no service 'nobody'; the services are orders, audit");
        try (Channel channel = broker.connect("count").createChannel()) {
            assertThat(channel.messageCount(orders.queue())).isEqualTo(1);
        }
    }

    @Test
    void groupsTheParkingLotAndReplaysOneGroupAtARateInTheNameGiven() throws Exception {
        RetrySpec spec = Specs.load(SPEC);
        Service orders = spec.service("orders");
        broker.declare(spec);
        ParkingLot parkingLot = ParkingLot.of(broker.connect("cli-it"), orders);
        for (int i = 0; i < 3; i++) {
            park(orders, "order.created", "timeout-" + i, new IOException("timeout after " + (500 + i) + " ms"),
                    NOW.minusSeconds(90 - i));
        }
        park(orders, "order.created", "locked", new IllegalStateException("order 7 is locked"), NOW.minusSeconds(30));
        assertParked(parkingLot, 4);

        Result groups = run("--uri", uri, "--spec", SPEC.toString(), "groups", "orders");
        String key = groups.out().lines().filter(line -> line.contains("timeout after # ms")).findFirst().orElseThrow()
                .substring(0, 16);
        Result replay = run("--uri", uri, "--spec", SPEC.toString(), "replay", "orders", "--group", key, "--rate", "50",
                "--as", "alice");
        Result badRate = run("--uri", uri, "--spec", SPEC.toString(), "replay", "orders", "--rate", "0");

        assertThat(groups.exitCode()).isZero();
        assertThat(groups.out()).contains("orders.parking-lot: 4 parked in 2 groups",
                "3  java.io.IOException: timeout after # ms  [attempts-exhausted]",
                "1  java.lang.IllegalStateException: order # is locked  [attempts-exhausted]");
        assertThat(replay.out()).contains("replayed 3 of 4 parked messages looked at to orders");
        assertThat(badRate.exitCode()).isEqualTo(1);
        assertThat(badRate.err()).contains("a replay's rate is more than 0");
        assertParked(parkingLot, 1);
        try (Channel channel = broker.connect("count").createChannel()) {
            var replayed = channel.basicGet(orders.queue(), true);
            assertThat(Delivered.headers(replayed.getProps()).replayedBy()).hasValue("alice (retry replay)");
        }
    }

    @Test
    void servesTheConsoleUntilStoppedAndRefusesToListenOnAnAddressOthersReach() throws Exception {
        CommandLine command = RetryCommand.commandLine();
        StringWriter out = new StringWriter();
        command.setOut(new PrintWriter(out, true));
        command.setErr(new PrintWriter(new StringWriter(), true));
        ConsoleCommand console = (ConsoleCommand) command.getSubcommands().get("console").getCommand();
        ExecutorService executor = Executors.newSingleThreadExecutor();
        Future<Integer> serving = executor.submit(() -> command.execute("--uri", uri, "--management-uri", management,
                "--spec", SPEC.toString(), "console", "--port", "0", "--read-only", "--as", "alice"));
        HttpResponse<String> session;
        try {
            await().atMost(Patience.WAIT).until(() -> out.toString().contains(" at http://"));
            URI page = URI.create(out.toString().substring(out.toString().indexOf("http://")).split("\\s")[0]);
            session = HttpClient.newHttpClient().send(HttpRequest.newBuilder(page.resolve("/api/session")).build(),
                    HttpResponse.BodyHandlers.ofString());
        } finally {
            console.stop.countDown();
            executor.shutdown();
        }

        assertThat(out.toString()).startsWith("retry console of fast-retries.yml (virtual host '" + broker.name()
                + "') at http://127.0.0.1:").endsWith(" (read-only)\n").doesNotContain("guest");
        JsonNode read = JSON.readTree(session.body());
        assertThat(read.path("readOnly").asBoolean()).isTrue();
        assertThat(read.path("operator").asText()).isEqualTo("alice");
        assertThat(serving.get(Patience.WAIT_SECONDS, SECONDS)).isZero();
        Result remote = run("--uri", uri, "--spec", SPEC.toString(), "console", "--bind", "0.0.0.0", "--port", "0");
        assertThat(remote.exitCode()).isEqualTo(1);
        assertThat(remote.err()).contains("would listen on 0.0.0.0, which other machines may reach", "--allow-remote");
        Result anonymous = run("--uri", uri, "--spec", SPEC.toString(), "console", "--bind", "0.0.0.0", "--port", "0",
                "--allow-remote");
        assertThat(anonymous.exitCode()).isEqualTo(1);
        assertThat(anonymous.err()).contains("--allow-remote needs --operator-header");
        Result both = run("--uri", uri, "--spec", SPEC.toString(), "console", "--port", "0",
                "--operator-header", "X-Remote-User", "--as", "alice");
        assertThat(both.exitCode()).isEqualTo(1);
        assertThat(both.err()).contains("--as and --operator-header both say who acts");
        Result badHeader = run("--uri", uri, "--spec", SPEC.toString(), "console", "--port", "0",
                "--operator-header", "Authorization");
        assertThat(badHeader.exitCode()).isEqualTo(1);
        assertThat(badHeader.err()).contains("--operator-header Authorization is a header that browsers, the console "
                + "or credentials use");
    }

    @Test
    void planAndApplyExitWithWhatAPipelineGatesOn() throws Exception {
        Result drift = run("--uri", uri, "--management-uri", management, "--spec", SPEC.toString(), "plan");
        Result applied = run("--uri", uri, "--management-uri", management, "--spec", SPEC.toString(), "apply");
        Result inSync = run("--uri", uri, "--management-uri", management, "--spec", SPEC.toString(), "plan");
        Result again = run("--uri", uri, "--management-uri", management, "--spec", SPEC.toString(), "apply");

        assertThat(drift.exitCode()).isEqualTo(2);
        assertThat(drift.out()).startsWith("Plan of vhost '" + broker.name() + "' at "
                + ManagementApi.withoutCredentials(broker.broker().managementUri()) + "/ for exchange 'test.events': 24 to "
                + "create\n");
        assertThat(drift.out()).contains("\norders\n  create    queue    orders                   missing\n");
        assertThat(applied.exitCode()).isZero();
        assertThat(applied.out()).contains("done: queue orders.retry.3: created\n", "now: in sync (24 objects)\n");
        assertThat(inSync.exitCode()).isZero();
        assertThat(inSync.out()).contains("in sync (24 objects)", "\norders: in sync\n  in sync: 5 queues, 5 policies, "
                + "2 bindings\n");
        assertThat(again.out()).contains("changed nothing\n");
    }

    @Test
    void planPrintsJsonForPipelines() throws Exception {
        run("--uri", uri, "--management-uri", management, "--spec", SPEC.toString(), "apply");
        try (Channel channel = broker.connect("delete").createChannel()) {
            channel.queueDelete("audit.parking-lot");
        }

        Result result = run("--uri", uri, "--management-uri", management, "--spec", SPEC.toString(), "plan", "--json");

        assertThat(result.exitCode()).isEqualTo(2);
        JsonNode plan = JSON.readTree(result.out());
        assertThat(plan.path("schema").asInt()).isEqualTo(1);
        assertThat(plan.path("vhost").asText()).isEqualTo(broker.name());
        assertThat(plan.path("inSync").asBoolean()).isFalse();
        assertThat(plan.path("summary").path("create").asInt()).isEqualTo(1);
        JsonNode created = null;
        for (JsonNode entry : plan.path("entries")) {
            if (entry.path("action").asText().equals("create")) {
                created = entry;
            }
        }
        assertThat(created).isNotNull();
        assertThat(JSON.convertValue(created, Map.class)).containsEntry("kind", "queue").containsEntry("service", "audit")
                .containsEntry("name", "audit.parking-lot").containsEntry("reason", "missing")
                .containsEntry("spec", Map.of("durable", true, "arguments", Map.of("x-queue-type", "quorum")))
                .containsEntry("broker", null).containsEntry("messages", null);
    }

    @Test
    void credentialsAreNeverPrinted(@TempDir Path directory) throws Exception {
        URI real = broker.broker().managementUri();
        String wrong = real.getScheme() + "://guest:s3cret-not-shown@" + real.getHost() + ":" + real.getPort();

        Result refused = run("--uri", uri, "--management-uri", wrong, "--spec", SPEC.toString(), "plan");
        Result json = run("--uri", uri, "--management-uri", management, "--spec", SPEC.toString(), "plan", "--json");
        Result badUri = run("--uri", "amqp://guest:s3cret-not-shown@host name", "--spec", SPEC.toString(), "plan");
        Path plan = directory.resolve("plan.json");
        Files.writeString(plan, json.out());

        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.err()).contains("answered 401");
        assertThat(badUri.exitCode()).isEqualTo(1);
        assertThat(badUri.err()).contains("'amqp://guest:***@host name' is not a AMQP URI");
        for (Result result : new Result[] {refused, json, badUri}) {
            assertThat(result.out() + result.err()).doesNotContain("s3cret").doesNotContain("guest:guest");
        }
        assertThat(Files.readString(plan)).doesNotContain("guest");
    }

    @Test
    void triesTheNextManagementUriWhenOneDoesNotAnswer() throws Exception {
        URI real = broker.broker().managementUri();
        String dead = real.getScheme() + "://127.0.0.1:1";

        Result result = run("--uri", uri, "--management-uri", dead + "," + management, "--spec", SPEC.toString(), "plan");

        assertThat(result.exitCode()).as(result.err()).isEqualTo(2);
        assertThat(result.out()).startsWith("Plan of vhost '" + broker.name() + "' at " + ("http://" + real.getHost() + ":"
                + real.getPort() + "/"));
    }

    @Test
    void anUnreachableBrokerIsAnError() {
        Result result = run("--uri", uri, "--management-uri", "http://127.0.0.1:1", "--spec", SPEC.toString(), "plan");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).startsWith("retry: no management API answered: [http://127.0.0.1:1/]");
    }

    record Result(int exitCode, String out, String err) {
    }

    private static Result run(String... arguments) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine command = RetryCommand.commandLine();
        command.setOut(new PrintWriter(out, true));
        command.setErr(new PrintWriter(err, true));
        ((RetryCommand) command.getCommand()).clock = Clock.fixed(NOW, ZoneOffset.UTC);
        int exitCode = command.execute(arguments);
        return new Result(exitCode, out.toString(), err.toString());
    }

    /** Parks a message the way the consumer does, as if it failed its last attempt at {@code parkedAt}. */
    private static void park(Service service, String routingKey, String body, Exception failure, Instant parkedAt)
            throws Exception {
        try (Channel channel = broker.connect("park").createChannel()) {
            channel.confirmSelect();
            Parked.publish(channel, service, routingKey, body, failure, parkedAt);
            channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
        }
    }

    /** A quorum queue counts the messages a closed channel returned a moment after it closed: the count is awaited. */
    private static void assertParked(ParkingLot parkingLot, long expected) {
        await().atMost(Patience.WAIT).untilAsserted(() -> assertThat(parkingLot.count()).isEqualTo(expected));
    }
}
