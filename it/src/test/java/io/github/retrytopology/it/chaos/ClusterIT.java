package io.github.retrytopology.it.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.ShutdownSignalException;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.operations.broker.BrokerAccess;
import io.github.retrytopology.operations.plan.TopologyPlanner;
import io.github.retrytopology.runtime.consumer.DeliveryContext;
import io.github.retrytopology.runtime.consumer.RetryListener;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.testing.LocalNode;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.PrivateCluster;
import io.github.retrytopology.runtime.testing.TestManagement;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The chaos runs on a cluster of three nodes of the suite's own ({@link PrivateCluster}), the consumer connected
 * as docs/clusters.md says an application connects: an address list of every node, automatic recovery. A node goes
 * away in the middle of each run; every message id is accounted for, as in {@link ChaosIT}, and the run also
 * measures what a user would see: the longest time nothing was handled after the node went (the stall), and how
 * late each retry came back after its tier's delay. The table is printed at the end and written to
 * {@code target/cluster.md}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Execution(ExecutionMode.CONCURRENT) // beside the other test classes;
@ResourceLock("private-cluster") // a class that holds a lock runs its own tests one at a time, in their order
class ClusterIT {

    /** The cluster as docs/clusters.md asks an operator to set it up. */
    static final List<String> SETTINGS = List.of("queue_leader_locator = balanced");

    private static final int MESSAGES = 2_000;
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    /** How long consumption may stop after a node is lost, and how late a retry may be. */
    private static final Duration BOUND = Duration.ofSeconds(15);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Service WORK = RetryTopology.SPEC.service("work");
    private static final List<Result> RESULTS = new CopyOnWriteArrayList<>();

    private static PrivateCluster cluster;

    @BeforeAll
    static void startCluster() throws IOException {
        long started = System.nanoTime();
        cluster = PrivateCluster.start("cluster", 3, SETTINGS);
        System.out.printf("Cluster of %s (RabbitMQ %s) up in %.1f s%s%n", cluster.nodes(), cluster.version(),
                (System.nanoTime() - started) / 1e9, cluster.remedies().isEmpty() ? ""
                        : "; " + String.join("; ", cluster.remedies()));
    }

    @AfterAll
    static void report() throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("| fault | published | succeeded | parked | lost | parked early | duplicates | took | against "
                + "no fault | longest stall after the fault | latest retry, after its delay | notes |");
        lines.add("|---|---|---|---|---|---|---|---|---|---|---|---|");
        Duration undisturbed = RESULTS.stream().filter(result -> result.fault().isEmpty()).map(Result::took)
                .findFirst().orElse(null);
        RESULTS.forEach(result -> lines.add(result.line(undisturbed)));
        System.out.println("Cluster runs (3 nodes of RabbitMQ " + (cluster == null ? "?" : cluster.version()) + ", "
                + MESSAGES + " messages each, 30% failing at least once):\n" + String.join("\n", lines));
        Files.write(Path.of("target", "cluster.md"), lines, StandardCharsets.UTF_8);
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(4)
    void classicQueueConsumedAgainOnceItsNodeIsBack() throws Exception {
        Run run = new Run("classic-node-killed");
        LocalNode home = cluster.leaderOf(run.vhost, RetryTopology.Ledger.QUEUE);
        LocalNode other = cluster.nodes().stream().filter(node -> node != home).findFirst().orElseThrow();
        Set<String> handled = ConcurrentHashMap.newKeySet();
        List<String> heard = new CopyOnWriteArrayList<>();
        ConnectionFactory factory = other.broker().connectionFactory(run.vhost);
        factory.setNetworkRecoveryInterval(200);
        try (Connection connection = factory.newConnection("cluster-ledger")) {
            RetryingConsumer consumer = RetryingConsumer.builder(connection,
                    LedgerHandler.routes(context -> handled.add(new String(context.body(),
                            StandardCharsets.UTF_8)))).listener(new RetryListener() {
                        @Override
                        public void onConsumerLost(Service service, String reason) {
                            heard.add("lost: " + reason);
                        }

                        @Override
                        public void onConsumerRestored(Service service) {
                            heard.add("restored");
                        }
                    }).start();
            publishLedgerEntries(run.vhost, "before", 100);
            awaitCondition(() -> handled.size() == 100, PATIENCE);
            home.kill();
            awaitCondition(() -> !heard.isEmpty(), PATIENCE);
            List<String> warnings = planWhileDown(run.vhost, home);
            home.startAgain();
            long back = System.nanoTime();
            publishLedgerEntries(run.vhost, "after", 100);
            // A classic queue recovered after a crash may deliver again messages acknowledged just before it.
            awaitCondition(() -> handled.size() == 200, PATIENCE);
            Duration resumed = Duration.ofNanos(System.nanoTime() - back);
            consumer.stop(Duration.ofSeconds(10));
            System.out.printf("Classic queue %s: consumed again %.1f s after its node %s was back; heard %s%n",
                    RetryTopology.Ledger.QUEUE, resumed.toMillis() / 1000.0, home.name(), heard);
            assertThat(handled).hasSize(200);
            assertThat(resumed).as("time to consume again once the node is back").isLessThanOrEqualTo(BOUND);
            assertThat(heard).first().asString().startsWith("lost: ");
            assertThat(warnings).as("the plan while %s was down", home).contains("queue " + RetryTopology.Ledger.QUEUE
                    + " is down: a classic queue is unavailable while the node that holds it is down");
            assertThat(warnings).anySatisfy(warning -> assertThat(warning).matches("queue work\\S* has 2 of 3 members "
                    + "online \\(" + home.name() + " down\\): it works, but the loss of 1 more node stops it"));
            assertThat(heard).last().isEqualTo("restored");
        }
    }

    /**
     * The warnings of a plan of the vhost while a node is down, read through every node's management API as the
     * command line reads a cluster; the statistics of the node's queues say so within the broker's interval.
     */
    private static List<String> planWhileDown(String vhost, LocalNode down) throws Exception {
        BrokerAccess access = BrokerAccess.of(cluster.nodes().stream().map(node -> node.broker().managementUri()
                .toString()).toList(), cluster.amqpUris().stream().map(URI::toString).toList(), Optional.empty(),
                Optional.empty());
        RetrySpec inVhost = RetryTopology.SPEC.inVhost(vhost);
        List<String> warnings = List.of();
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!(warnings.stream().anyMatch(warning -> warning.contains(" is down"))
                && warnings.stream().anyMatch(warning -> warning.contains(" members online")))
                && System.nanoTime() < deadline) {
            warnings = TopologyPlanner.of(access).plan(inVhost).warnings();
            Thread.sleep(500);
        }
        System.out.println("Plan while " + down + " was down: " + warnings);
        return warnings;
    }

    /** How many of the vhost's quorum queues each node leads. */
    private static Map<String, Long> leadersByNode(String vhost) throws Exception {
        Map<String, Long> leaders = new TreeMap<>();
        for (int tries = 0; tries < 50 && (leaders.isEmpty() || leaders.containsKey("")); tries++) {
            // A new queue's leader comes with its first statistics.
            Thread.sleep(tries == 0 ? 0 : 200);
            leaders.clear();
            for (JsonNode queue : JSON.readTree(cluster.management().get("api/queues/" + TestManagement.encode(vhost)
                    + "?columns=type,leader"))) {
                if (queue.path("type").asText().equals("quorum")) {
                    leaders.merge(queue.path("leader").asText(), 1L, Long::sum);
                }
            }
        }
        return leaders;
    }

    private static void publishLedgerEntries(String vhost, String batch, int count) throws Exception {
        try (Connection connection = cluster.connect(vhost, "cluster-ledger-publisher")) {
            Channel channel = connection.createChannel();
            channel.confirmSelect();
            for (int i = 0; i < count; i++) {
                channel.basicPublish(RetryTopology.EXCHANGE, "ledger.entry", true,
                        new AMQP.BasicProperties.Builder().deliveryMode(2).build(),
                        ("entry " + batch + " " + i).getBytes(StandardCharsets.UTF_8));
            }
            channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
        }
    }

    private static void awaitCondition(ChaosIT.BooleanSupplierWithIo condition, Duration patience) throws Exception {
        long deadline = System.nanoTime() + patience.toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
    }

    /** Last, so that the runs with faults, not this one, start with a JVM that has not warmed up. */
    @Test
    @Order(5)
    void noFault() throws Exception {
        Run run = new Run("no-fault");
        run.consume(() -> { });
        run.finish("", "");
    }

    @Test
    @Order(1)
    void leaderOfTheServiceQueueKilledAndRestarted() throws Exception {
        Run run = new Run("leader-killed");
        // The first vhost of a new cluster: no node leads a queue yet.
        Map<String, Long> leaders = leadersByNode(run.vhost);
        System.out.println("Leaders of the imported quorum queues, by node: " + leaders);
        assertThat(leaders).as("queue_leader_locator = balanced spreads the leaders of imported queues")
                .containsOnlyKeys(cluster.nodes().stream().map(LocalNode::name).toList());
        run.consume(() -> {
            LocalNode leader = cluster.leaderOf(run.vhost, RetryTopology.Work.QUEUE);
            run.fault("kill -9 of " + leader.name() + ", the leader of " + RetryTopology.Work.QUEUE);
            leader.kill();
            leader.startAgain();
        });
        run.finish("leader of the service queue killed (kill -9) and restarted", run.fault);
    }

    @Test
    @Order(2)
    void nodeOfTheConsumerKilled() throws Exception {
        Run run = new Run("consumer-node-killed");
        run.consume(() -> {
            LocalNode node = cluster.nodeListeningOn(run.connection.getPort());
            run.fault("kill -9 of " + node.name() + ", which the consumer was connected to");
            node.kill();
            node.startAgain();
        });
        run.finish("node the consumer is connected to killed (kill -9) and restarted", run.fault);
    }

    @Test
    @Order(3)
    void nodeStoppedWhileMessagesWaitInTierQueues() throws Exception {
        Run run = new Run("node-stopped");
        run.consume(() -> {
            LocalNode node = cluster.leaderOf(run.vhost, RetryTopology.Work.RETRY_1);
            long waiting = run.waitingInTiers();
            run.fault("rabbitmqctl stop of " + node.name() + ", the leader of " + RetryTopology.Work.RETRY_1 + ", with "
                    + waiting + " messages in the tier queues");
            node.stop();
            Thread.sleep(2_000);
            node.startAgain();
        });
        run.finish("node stopped while messages wait in tier queues, started 2 s later", run.fault);
        assertThat(run.fault).as("the node was stopped with messages waiting").doesNotContain(" with 0 messages");
    }

    /** A fault, run once a third of the messages have succeeded. */
    @FunctionalInterface
    interface Fault {
        void inject() throws Exception;
    }

    /** One run: a vhost of its own with the chaos topology, its workload, and what the handler saw when. */
    private static final class Run {
        final String vhost;
        final Workload workload = Workload.of(MESSAGES);
        final Tally tally = new Tally(workload, WorkService.TIER_QUEUES);
        final ChaosIT.Heard heard = new ChaosIT.Heard();
        final ConcurrentLinkedQueue<Long> arrivals = new ConcurrentLinkedQueue<>();
        final Map<String, Long> failures = new ConcurrentHashMap<>();
        final AtomicLong latestRetry = new AtomicLong();
        Connection connection;
        String fault = "";
        long faultAt;
        long started;
        long ended;

        Run(String vhost) throws IOException {
            this.vhost = vhost;
            cluster.createVhost(vhost, "guest");
            TestManagement management = cluster.management();
            try (InputStream definitions = RetryTopology.class.getResourceAsStream(RetryTopology.VHOST_DEFINITIONS)) {
                management.importDefinitions(vhost, new String(definitions.readAllBytes(), StandardCharsets.UTF_8));
            }
        }

        void fault(String description) {
            fault = description;
            faultAt = System.nanoTime();
        }

        /** Publishes the workload, consumes it, injects the fault a third of the way, and waits until all is done. */
        void consume(Fault inject) throws Exception {
            try (Connection publisher = cluster.connect(vhost, "cluster-publisher")) {
                workload.publish(publisher.createChannel());
            }
            started = System.nanoTime();
            connection = cluster.connect(vhost, "cluster-consumer");
            try {
                RetryingConsumer consumer = RetryingConsumer.builder(connection, WorkHandler.routes(this::handle))
                        .prefetch(ChaosWorker.PREFETCH).consumers(ChaosWorker.CONSUMERS).listener(heard).start();
                await(() -> tally.successes() >= MESSAGES / 3);
                // On a thread of its own, so that the run goes on while a node stops and starts again.
                CompletableFuture<Void> injected = CompletableFuture.runAsync(() -> {
                    try {
                        inject.inject();
                    } catch (Exception e) {
                        throw new CompletionException(e);
                    }
                });
                await(this::done);
                ended = System.nanoTime();
                injected.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
                consumer.stop(Duration.ofSeconds(10));
            } finally {
                connection.abort();
            }
        }

        /** The chaos handler, timed: when each attempt arrived, and how late after its tier's delay. */
        private void handle(DeliveryContext context) throws Exception {
            long now = System.nanoTime();
            arrivals.add(now);
            String id = context.messageId().orElseThrow();
            Long failed = failures.get(id + "/" + (context.attempt() - 1));
            if (failed != null) {
                long late = now - failed - WORK.tier(context.attempt() - 1).delay().toNanos();
                latestRetry.accumulateAndGet(late, Math::max);
            }
            try {
                ChaosWorker.handler(tally, Duration.ZERO).handle(context);
            } catch (Exception e) {
                failures.put(id + "/" + context.attempt(), System.nanoTime());
                throw e;
            }
        }

        boolean done() throws IOException {
            try (Connection check = cluster.connect(vhost, "cluster-check")) {
                if (!tally.settled(check)) {
                    return false;
                }
            }
            return waitingInTiers() == 0 && queueDepth(RetryTopology.Work.QUEUE) == 0;
        }

        long waitingInTiers() throws IOException {
            return queueDepth(RetryTopology.Work.RETRY_1) + queueDepth(RetryTopology.Work.RETRY_2)
                    + queueDepth(RetryTopology.Work.RETRY_3);
        }

        private long queueDepth(String queue) throws IOException {
            try (Connection check = cluster.connect(vhost, "cluster-depth")) {
                return check.createChannel().messageCount(queue);
            }
        }

        /**
         * What the service's queues hold, as the broker counts it: ready and unacknowledged messages, and those
         * dead-lettered and not yet forwarded, which wait in the queue that dead-lettered them. Messages that
         * neither succeeded nor were parked are lost only if they are in none of these.
         */
        String held() throws IOException {
            List<String> queues = new ArrayList<>();
            for (JsonNode queue : JSON.readTree(cluster.management().get("api/queues/" + TestManagement.encode(vhost)
                    + "?columns=name,messages_ready,messages_unacknowledged,messages_dlx"))) {
                long dlx = queue.path("messages_dlx").asLong();
                queues.add(queue.path("name").asText() + " " + queue.path("messages_ready").asLong() + " ready, "
                        + queue.path("messages_unacknowledged").asLong() + " unacknowledged"
                        + (dlx > 0 ? ", " + dlx + " dead-lettered not forwarded" : ""));
            }
            return String.join("; ", queues);
        }

        /** The longest time after the fault in which the handler saw nothing. */
        Duration stall() {
            if (faultAt == 0) {
                return Duration.ZERO;
            }
            long previous = faultAt;
            long longest = 0;
            for (long arrival : arrivals.stream().sorted().toList()) {
                if (arrival > faultAt) {
                    longest = Math.max(longest, arrival - previous);
                    previous = arrival;
                }
            }
            return Duration.ofNanos(longest);
        }

        Duration took() {
            return Duration.ofNanos(ended - started);
        }

        void await(ChaosIT.BooleanSupplierWithIo condition) throws Exception {
            while (!holds(condition)) {
                if (System.nanoTime() - started > PATIENCE.toNanos()) {
                    return;
                }
                Thread.sleep(100);
            }
        }

        /** Whether the condition holds; not yet, if the node its check went to went away meanwhile. */
        private static boolean holds(ChaosIT.BooleanSupplierWithIo condition) throws Exception {
            try {
                return condition.getAsBoolean();
            } catch (IOException | ShutdownSignalException nodeGone) {
                return false;
            }
        }

        /** Adds the run's row, then checks it. */
        void finish(String scenario, String notes) throws Exception {
            if (ended == 0) {
                ended = System.nanoTime();
            }
            Tally.Row row;
            try (Connection check = cluster.connect(vhost, "cluster-tally")) {
                row = tally.row(scenario, check, took(), notes);
            }
            Duration stall = stall();
            Duration latest = Duration.ofNanos(latestRetry.get());
            String held = row.lost() > 0 ? "; not accounted for at the deadline, the queues held: " + held() : "";
            RESULTS.add(new Result(scenario, row, took(), stall, latest, notes + (notes.isEmpty() ? "" : "; ") + heard
                    + held));
            // The vhost stays: on RabbitMQ 3.10, deleting quorum queues with at-least-once dead-lettering while
            // their dead-letter workers start, as after a node's restart, brings down the node's dead-letter
            // supervisor. The cluster goes at the end.
            assertThat(row.lost()).as("lost in: %s%s", row, held).isZero();
            assertThat(row.parkedEarly()).as("parked before their attempts were spent in: %s", row).isZero();
            assertThat(row.succeeded() + row.parked()).as("succeeded and parked in: %s", row)
                    .isGreaterThanOrEqualTo(row.published());
            assertThat(stall).as("longest time nothing was handled after: %s", notes).isLessThanOrEqualTo(BOUND);
            assertThat(latest).as("latest retry, after its delay, in: %s", row).isLessThanOrEqualTo(BOUND);
        }

    }

    /** What a run measured, for the table. */
    private record Result(String fault, Tally.Row row, Duration took, Duration stall, Duration latestRetry,
            String notes) {

        String line(Duration undisturbed) {
            return "| %s | %d | %d | %d | %d | %d | %d | %s | %s | %s | +%s | %s |".formatted(fault.isEmpty() ? "none"
                    : fault, row.published(), row.succeeded(), row.parked(), row.lost(), row.parkedEarly(),
                    row.duplicates(), seconds(took), undisturbed == null ? "" : "%.1f×".formatted(
                            (double) took.toNanos() / undisturbed.toNanos()), fault.isEmpty() ? "" : seconds(stall),
                    seconds(latestRetry), notes);
        }

        private static String seconds(Duration duration) {
            return "%.1f s".formatted(duration.toMillis() / 1000.0);
        }
    }
}
