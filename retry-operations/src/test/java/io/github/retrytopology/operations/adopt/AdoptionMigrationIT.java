package io.github.retrytopology.operations.adopt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.GetResponse;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.headers.Header;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.operations.adopt.HandRolledTopologies.Inventory;
import io.github.retrytopology.operations.adopt.HandRolledTopologies.Placed;
import io.github.retrytopology.operations.broker.BrokerAccess;
import io.github.retrytopology.operations.cli.RetryCommand;
import io.github.retrytopology.operations.plan.AdoptionMigration;
import io.github.retrytopology.operations.plan.AdoptionStep;
import io.github.retrytopology.operations.plan.AdoptionStep.Action;
import io.github.retrytopology.operations.plan.AdoptionStep.State;
import io.github.retrytopology.operations.plan.TopologyPlanner;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.consumer.Routes;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import picocli.CommandLine;

/**
 * The whole way off a hand-rolled retry topology, on a real broker: each shape of the blog posts built with their
 * own names and arguments and holding messages (ready, waiting after a failure, given up), adopted live, planned,
 * applied, then planned again in sync; every message accounted for by its id, with the attempts it had made.
 */
class AdoptionMigrationIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private static final int READY = 5;
    private static final int WAITING = 4;
    private static final int FAILED = 3;

    private final List<String> progress = new ArrayList<>();

    @BeforeEach
    void emptyVhost() throws IOException {
        broker.reset();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(HandRolledTopologies.class)
    void everyMessageMovesWithItsAttemptsAndThePlanIsThenInSync(HandRolledTopologies shape, @TempDir Path directory)
            throws Exception {
        Inventory inventory;
        try (Connection connection = broker.connect("old-topology")) {
            inventory = shape.populate(connection.createChannel(), broker.management(), broker.name(), shape.name(),
                    READY, WAITING, FAILED);
        }
        Adopted adopted = adopt(directory);
        AdoptionMigration migration = AdoptionMigration.of(access(), adopted.spec(), adopted.record());

        List<AdoptionStep> planned = migration.plan();

        assertThat(step(planned, Action.CHECK_CONSUMERS, "the old queues").state()).isEqualTo(State.DONE);
        for (String waitQueue : shape.waitQueues()) {
            AdoptionStep move = step(planned, Action.MOVE, waitQueue);
            assertThat(move.messages()).hasValue(inventory.in(waitQueue));
            assertThat(move.state()).isEqualTo(inventory.in(waitQueue) > 0 ? State.TO_DO : State.DONE);
        }
        if (shape.failedQueue() != null) {
            assertThat(step(planned, Action.MOVE, shape.failedQueue()).messages()).hasValue(FAILED);
        }
        assertThat(step(planned, Action.REWRITE, shape.workQueue()).messages()).hasValue(READY);

        List<AdoptionStep> applied = migration.apply(true, progress::add);

        assertThat(applied).as("%s", progress).allMatch(step -> step.state() == State.DONE);
        assertThat(TopologyPlanner.of(access()).plan(adopted.spec()).inSync()).isTrue();
        assertThat(AdoptionStep.finished(migration.plan())).isTrue();
        Map<String, Found> found = drain(adopted.spec());
        assertThat(found.keySet()).containsAll(inventory.messages().keySet());
        Service service = adopted.spec().services().get(0);
        inventory.messages().forEach((id, placed) -> assertArrived(shape, service, id, placed, found.get(id)));
        Connection checking = broker.connect("check");
        for (String old : adopted.record().replaced().queues()) {
            Channel channel = checking.createChannel();
            assertThatThrownBy(() -> channel.queueDeclarePassive(old)).as("deleted: %s; %s", old, progress)
                    .isInstanceOf(IOException.class).hasStackTraceContaining("NOT_FOUND");
        }
        checking.close();
    }

    /** Where a message was, and how many attempts it had made, says where it is now and what its headers say. */
    private static void assertArrived(HandRolledTopologies shape, Service service, String id, Placed placed,
            Found found) {
        assertThat(found.headers()).as(id).containsEntry(Header.ADOPTED_FROM.name(), placed.queue());
        assertThat(found.headers().get(Header.ORIGINAL_ROUTING_KEY.name())).as(id).isNotNull();
        if (placed.queue().equals(shape.workQueue())) {
            assertThat(found.queue()).as(id).isEqualTo(service.queue());
            assertThat(found.headers()).as(id).doesNotContainKey(Header.ATTEMPTS.name());
        } else if (placed.queue().equals(shape.failedQueue())) {
            assertThat(found.queue()).as(id).isEqualTo(service.parkingLot());
            assertThat(found.headers()).as(id).containsKey(Header.PARK_REASON.name());
        } else {
            assertThat(found.queue()).as(id).startsWith(service.name() + ".retry.");
            assertThat(found.headers()).as(id).containsEntry(Header.ATTEMPTS.name(), placed.failedAttempts());
        }
    }

    /**
     * The runtime takes over where the old consumer left off: a ready message comes at attempt 1, one that failed in
     * the old topology comes back from its tier at attempt 2, each to the handler of the key it was published with.
     * The drafted delay is shortened here, so that the tier gives the messages back within the test.
     */
    @Test
    void theRuntimeTakesTheMovedMessagesAtTheirNextAttempt(@TempDir Path directory) throws Exception {
        HandRolledTopologies shape = HandRolledTopologies.SNEAKERS;
        Inventory inventory;
        try (Connection connection = broker.connect("old-topology")) {
            inventory = shape.populate(connection.createChannel(), broker.management(), broker.name(), "m", READY,
                    WAITING, FAILED);
        }
        Adopted drafted = adopt(directory);
        Path specFile = drafted.specFile();
        Files.writeString(specFile, Files.readString(specFile).replace("delays: [1m]", "delays: [300ms]"));
        RetrySpec spec = Specs.load(specFile);
        AdoptionMigration.of(access(), spec, drafted.record()).apply(false, progress::add);
        Service service = spec.services().get(0);
        Map<String, Integer> attempts = new java.util.concurrent.ConcurrentHashMap<>();
        Map<String, String> keys = new java.util.concurrent.ConcurrentHashMap<>();
        Routes routes = Routes.builder(service).on(shape.keys().get(0), context -> {
            String id = context.messageId().orElseThrow();
            attempts.put(id, context.attempt());
            keys.put(id, context.routingKey());
        }).build();

        RetryingConsumer consumer = RetryingConsumer.builder(broker.connect("new-consumer"), routes).start();
        try {
            await().atMost(Patience.WAIT).until(() -> attempts.size() == READY + WAITING);
        } finally {
            consumer.stop(Duration.ofSeconds(10));
        }

        inventory.messages().forEach((id, placed) -> {
            if (placed.queue().equals(shape.workQueue())) {
                assertThat(attempts).containsEntry(id, 1);
            } else if (!placed.queue().equals(shape.failedQueue())) {
                assertThat(attempts).containsEntry(id, placed.failedAttempts() + 1);
            }
        });
        assertThat(keys.values()).containsOnly(shape.keys().get(0));
        try (Channel channel = broker.connect("parked").createChannel()) {
            assertThat(channel.queueDeclarePassive(service.parkingLot()).getMessageCount()).isEqualTo(FAILED);
        }
    }

    @Test
    void anOldConsumerStillAttachedIsRefusedBeforeAnythingChanges(@TempDir Path directory) throws Exception {
        HandRolledTopologies shape = HandRolledTopologies.SNEAKERS;
        try (Connection connection = broker.connect("old-topology")) {
            shape.populate(connection.createChannel(), broker.management(), broker.name(), "m", READY, WAITING, FAILED);
        }
        Adopted adopted = adopt(directory);
        AdoptionMigration migration = AdoptionMigration.of(access(), adopted.spec(), adopted.record());
        Connection old = broker.connect("old-consumer");
        Channel consuming = old.createChannel();
        consuming.basicConsume(shape.waitQueues().get(0), false, new DefaultConsumer(consuming));

        assertThat(step(migration.plan(), Action.CHECK_CONSUMERS, "the old queues").state()).isEqualTo(State.BLOCKED);
        assertThatThrownBy(() -> migration.apply(false, progress::add))
                .hasMessageContaining(shape.waitQueues().get(0) + ": 1")
                .hasMessageContaining("stop the old consumers first")
                .hasMessageContaining("nothing was changed");
        assertThat(TopologyPlanner.of(access()).plan(adopted.spec()).entries())
                .as("nothing of the spec was created").noneMatch(entry -> entry.inSync()
                        && entry.name().startsWith(adopted.spec().services().get(0).name() + "."));

        old.close();
        await().atMost(Patience.WAIT).until(() -> step(migration.plan(), Action.CHECK_CONSUMERS, "the old queues")
                .state() == State.DONE);
        assertThat(migration.apply(false, progress::add)).filteredOn(step -> step.action() != Action.DELETE)
                .allMatch(step -> step.state() == State.DONE);
    }

    /**
     * A migration interrupted after each kind of step (the spec's topology, a bridge, a move, a kept work queue's
     * rewrite, an unbind), as a crash between two steps leaves it, is finished by the next run: every message in
     * the spec's topology with its attempts. The kill of {@link #aMigrationKilledHalfwayIsFinishedByTheNextRunAndLosesNothing}
     * interrupts one inside a move.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(HandRolledTopologies.class)
    void aMigrationInterruptedAfterAnyStepIsFinishedByTheNextRun(HandRolledTopologies shape, @TempDir Path directory)
            throws Exception {
        for (String step : interruptions(shape)) {
            broker.reset();
            Inventory inventory;
            try (Connection connection = broker.connect("old-topology")) {
                inventory = shape.populate(connection.createChannel(), broker.management(), broker.name(),
                        shape.name(), READY, WAITING, FAILED);
            }
            Adopted adopted = adopt(directory);
            AdoptionMigration migration = AdoptionMigration.of(access(), adopted.spec(), adopted.record());
            List<String> before = new ArrayList<>();
            try {
                migration.apply(false, line -> {
                    before.add(line);
                    if (line.startsWith(step)) {
                        throw new Interrupted();
                    }
                });
            } catch (Interrupted expected) {
                // as a crash right after that step
            }

            List<AdoptionStep> finished = migration.apply(false, progress::add);

            assertThat(finished).filteredOn(done -> done.action() != Action.DELETE)
                    .as("after %s: %s", step, before).allMatch(done -> done.state() == State.DONE);
            Map<String, Found> found = drain(adopted.spec());
            Service service = adopted.spec().services().get(0);
            inventory.messages().forEach((id, placed) -> {
                assertThat(found).as("after %s", step).containsKey(id);
                assertArrived(shape, service, id, placed, found.get(id));
            });
        }
    }

    /**
     * Where to interrupt a shape's migration: after two kinds of step, each kind taken for two or three shapes, so
     * that every kind is interrupted without taking every shape through every kind.
     */
    private static List<String> interruptions(HandRolledTopologies shape) {
        List<String> kinds = List.of("done: ", "bridge ", "move ", "rewrite ", "unbind ");
        int first = shape.ordinal() % kinds.size();
        return List.of(kinds.get(first), kinds.get((first + 2) % kinds.size()));
    }

    /** What a crash between two steps does to a migration, thrown from its progress. */
    private static final class Interrupted extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }

    /**
     * A migration killed while it moves the waiting messages loses none, and the next run finishes it: every message
     * is in the spec's topology, with its attempts, at least once.
     */
    @Test
    void aMigrationKilledHalfwayIsFinishedByTheNextRunAndLosesNothing(@TempDir Path directory) throws Exception {
        HandRolledTopologies shape = HandRolledTopologies.SNEAKERS;
        int waiting = 8_000;
        try (Connection connection = broker.connect("old-topology")) {
            Channel channel = connection.createChannel();
            shape.populate(channel, broker.management(), broker.name(), "few", 0, 0, 0);
            failInBulk(channel, shape, waiting);
        }
        Adopted adopted = adopt(directory);
        String tier = adopted.spec().services().get(0).name() + ".retry.1";
        Process migrating = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), RetryCommand.class.getName(),
                "--uri", broker.broker().amqpUri(broker.name()), "--management-uri",
                broker.broker().managementUri().toString(), "--spec", adopted.specFile().toString(), "apply",
                "--adoption", adopted.recordFile().toString()).redirectErrorStream(true)
                .redirectOutput(directory.resolve("migrating.log").toFile()).start();
        long[] atKill = new long[2];
        Connection watching = broker.connect("watch");
        await().atMost(Patience.WAIT).pollInterval(5, TimeUnit.MILLISECONDS).until(() -> {
            if (!migrating.isAlive()) {
                throw new AssertionError("the migration ended before it was killed: "
                        + Files.readString(directory.resolve("migrating.log")));
            }
            Channel channel = watching.createChannel();
            try {
                return channel.queueDeclarePassive(tier).getMessageCount() > 0;
            } catch (IOException notYet) {
                return false; // the tier is not declared yet, and the 404 closed the channel
            } finally {
                if (channel.isOpen()) {
                    channel.close();
                }
            }
        });
        migrating.destroyForcibly();
        assertThat(migrating.waitFor(60, TimeUnit.SECONDS)).isTrue();
        watching.close();
        try (Channel channel = broker.connect("count").createChannel()) {
            atKill[0] = channel.queueDeclarePassive(shape.waitQueues().get(0)).getMessageCount();
            atKill[1] = channel.queueDeclarePassive(tier).getMessageCount();
        }
        assertThat(atKill[0]).as("messages still waiting in the old queue when killed").isPositive();

        List<AdoptionStep> finished = AdoptionMigration.of(access(), adopted.spec(), adopted.record())
                .apply(false, progress::add);

        assertThat(finished).filteredOn(step -> step.action() != Action.DELETE)
                .as("%s", progress).allMatch(step -> step.state() == State.DONE);
        Map<String, Found> found = drain(adopted.spec());
        assertThat(found).hasSize(waiting);
        assertThat(found.values()).allSatisfy(message -> {
            assertThat(message.queue()).isEqualTo(tier);
            assertThat(message.headers()).containsEntry(Header.ATTEMPTS.name(), 1);
        });
    }

    @Test
    void theCommandLinePlansTheMigrationAsATableAndAsJsonThenAppliesIt(@TempDir Path directory) throws Exception {
        HandRolledTopologies shape = HandRolledTopologies.MASTER_RETRY_FAILED;
        try (Connection connection = broker.connect("old-topology")) {
            shape.populate(connection.createChannel(), broker.management(), broker.name(), "m", READY, WAITING, FAILED);
        }
        Adopted adopted = adopt(directory);
        String record = adopted.recordFile().toString();

        Run table = retry(adopted, "plan", "--adoption", record);
        Run json = retry(adopted, "plan", "--json", "--adoption", record);
        Run refused = retry(adopted, "apply", "--delete-old");
        Run applied = retry(adopted, "apply", "--adoption", record, "--delete-old");
        Run after = retry(adopted, "plan", "--adoption", record);

        assertThat(table.exit()).isEqualTo(RetryCommand.DRIFT);
        assertThat(table.out()).contains("adoption, as " + record + " says:",
                "  to-do move ucenter@user@retry [" + WAITING + " messages]: to ucenter-user.retry.1",
                "  to-do move ucenter@user@failed [" + FAILED + " messages]: to ucenter-user.parking-lot",
                "  left delete queue ucenter@user@retry [" + WAITING + " messages]: kept until apply --adoption "
                        + "--delete-old");
        JsonNode steps = new ObjectMapper().readTree(json.out()).path("adoption");
        assertThat(steps).anySatisfy(step -> {
            assertThat(step.path("action").asText()).isEqualTo("move");
            assertThat(step.path("object").asText()).isEqualTo("ucenter@user@retry");
            assertThat(step.path("messages").asLong()).isEqualTo(WAITING);
            assertThat(step.path("state").asText()).isEqualTo("to-do");
        });
        assertThat(refused.exit()).isEqualTo(RetryCommand.ERROR);
        assertThat(refused.err()).contains("--delete-old goes with --adoption");
        assertThat(applied.exit()).as(applied.out() + applied.err()).isEqualTo(RetryCommand.OK);
        assertThat(applied.out()).contains("move ucenter@user@retry to ucenter-user.retry.1: " + WAITING + " moved");
        assertThat(after.exit()).as(after.out()).isEqualTo(RetryCommand.OK);
        assertThat(after.out()).contains("  done delete queue ucenter@user@failed: gone");
    }

    private record Run(int exit, String out, String err) {
    }

    private static Run retry(Adopted adopted, String... arguments) {
        List<String> all = new ArrayList<>(List.of("--uri", broker.broker().amqpUri(broker.name()), "--management-uri",
                broker.broker().managementUri().toString(), "--spec", adopted.specFile().toString()));
        all.addAll(List.of(arguments));
        CommandLine command = RetryCommand.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        command.setOut(new PrintWriter(out));
        command.setErr(new PrintWriter(err));
        int exit = command.execute(all.toArray(String[]::new));
        return new Run(exit, out.toString(), err.toString());
    }

    /** Publishes messages to the shape's work queue and fails each once, as its consumer does, all at once. */
    private static void failInBulk(Channel channel, HandRolledTopologies shape, int count) throws Exception {
        channel.confirmSelect();
        for (int i = 0; i < count; i++) {
            channel.basicPublish("", shape.workQueue(), new AMQP.BasicProperties.Builder().messageId("bulk-" + i)
                    .deliveryMode(2).build(), ("bulk-" + i).getBytes(StandardCharsets.UTF_8));
        }
        channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
        channel.basicQos(500);
        channel.basicConsume(shape.workQueue(), false, new DefaultConsumer(channel) {
            @Override
            public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body)
                    throws IOException {
                channel.basicReject(envelope.getDeliveryTag(), false);
            }
        });
        await().atMost(Patience.WAIT).until(() -> channel.queueDeclarePassive(shape.waitQueues().get(0))
                .getMessageCount() == count);
    }

    /** A message found in the spec's topology. */
    private record Found(String queue, Map<String, Object> headers) {
    }

    /** Takes every message out of the spec's queues, by message id; a message found twice keeps its first place. */
    private static Map<String, Found> drain(RetrySpec spec) throws Exception {
        Map<String, Found> found = new HashMap<>();
        try (Channel channel = broker.connect("drain").createChannel()) {
            for (var queue : Topology.of(spec).queues()) {
                GetResponse message;
                while ((message = channel.basicGet(queue.name(), true)) != null) {
                    Map<String, Object> headers = new HashMap<>();
                    if (message.getProps().getHeaders() != null) {
                        message.getProps().getHeaders().forEach((key, value) -> headers.put(key,
                                value instanceof Number number ? (Object) number.intValue() : String.valueOf(value)));
                    }
                    found.putIfAbsent(message.getProps().getMessageId(), new Found(queue.name(), headers));
                }
            }
        }
        return found;
    }

    private record Adopted(RetrySpec spec, AdoptionRecord record, Path specFile, Path recordFile) {
    }

    private static Adopted adopt(Path directory) throws IOException {
        Definitions definitions = Definitions.fetch(access().managementApi(), broker.name());
        Adoption adoption = Adopter.adopt(definitions, AdoptOptions.defaults());
        assertThat(adoption.record().problems()).isEmpty();
        Path spec = directory.resolve("retry.yml");
        AdoptionFiles.write(spec, adoption, true);
        return new Adopted(Specs.load(spec), adoption.record(), spec, AdoptionFiles.recordPath(spec));
    }

    private static BrokerAccess access() {
        return BrokerAccess.of(List.of(broker.broker().managementUri().toString()),
                List.of(broker.broker().amqpUri(broker.name())), Optional.empty(), Optional.empty());
    }

    private static AdoptionStep step(List<AdoptionStep> steps, Action action, String object) {
        return steps.stream().filter(step -> step.action() == action && step.object().equals(object)).findFirst()
                .orElseThrow(() -> new AssertionError("no step " + action + " " + object + " in " + steps));
    }
}
