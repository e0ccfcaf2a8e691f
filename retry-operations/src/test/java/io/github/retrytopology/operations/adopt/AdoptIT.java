package io.github.retrytopology.operations.adopt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.operations.cli.RetryCommand;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestManagement;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * {@code retry adopt} against a live virtual host, each shape declared over AMQP as its blog post's own code
 * declares it: the draft and the record are those that the same shape's definitions file gives (the golden files
 * of {@link AdopterTest}), but for what names the source and the virtual host.
 */
class AdoptIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private static final ObjectMapper JSON = new ObjectMapper();

    @BeforeEach
    void emptyVhost() throws IOException {
        broker.reset();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"000-per-message-ttl", "001-sneakers", "003-master-retry-failed", "004-dead-letter-loop"})
    void draftsALiveShapeAsItsDefinitionsFile(String shape, @TempDir Path directory) throws Exception {
        try (Connection connection = broker.connect("declare")) {
            declare(shape, connection.createChannel());
        }
        Path spec = directory.resolve("retry.yml");

        int exit = adopt("--out", spec.toString());

        assertThat(exit).isEqualTo(RetryCommand.OK);
        Path golden = AdopterTest.SHAPES.resolve(shape);
        assertThat(comparable(Files.readString(spec))).isEqualTo(comparable(Files.readString(golden.resolve("retry.yml"))));
        AdoptionRecord live = AdoptionJson.read(directory.resolve("retry.adoption.json"));
        AdoptionRecord file = AdoptionJson.read(golden.resolve("retry.adoption.json"));
        assertThat(live.vhost()).isEqualTo(broker.name());
        assertThat(live.source()).contains(broker.name());
        assertThat(live.queues()).isEqualTo(file.queues());
        assertThat(live.services()).isEqualTo(file.services());
        assertThat(live.replaced()).isEqualTo(file.replaced());
        assertThat(live.exchange()).isEqualTo(file.exchange());
        assertThat(Specs.load(spec).vhost()).isEqualTo(broker.name());
    }

    @Test
    void theConsumersTheBrokerCountsTellAWaitQueueWithoutTtlFromAWorkQueue(@TempDir Path directory) throws Exception {
        try (Connection connection = broker.connect("declare")) {
            Channel channel = connection.createChannel();
            channel.exchangeDeclare("exchange-a", "topic", true);
            channel.exchangeDeclare("exchange-b", "topic", true);
            channel.queueDeclare("queue-a", true, false, false, null);
            channel.queueDeclare("queue-b", true, false, false, Map.of("x-dead-letter-exchange", "exchange-a"));
            channel.queueBind("queue-a", "exchange-a", "key-a");
            channel.queueBind("queue-b", "exchange-b", "key-a");
        }
        Path spec = directory.resolve("retry.yml");
        assertThat(adopt("--out", spec.toString(), "--force")).isEqualTo(RetryCommand.DRIFT);

        try (Connection consuming = broker.connect("consumer")) {
            Channel channel = consuming.createChannel();
            channel.basicConsume("queue-a", false, new DefaultConsumer(channel));
            TestManagement management = broker.management();
            await().atMost(Patience.WAIT).until(() -> JSON.readTree(management.get("api/queues/"
                    + TestManagement.encode(broker.name()) + "/queue-a")).path("consumers").asInt() == 1);

            assertThat(adopt("--out", spec.toString(), "--force")).isEqualTo(RetryCommand.OK);
        }
        AdoptionRecord record = AdoptionJson.read(directory.resolve("retry.adoption.json"));
        assertThat(record.queue("queue-b")).hasValueSatisfying(queue -> {
            assertThat(queue.role()).isEqualTo(AdoptionRecord.Role.WAIT);
            assertThat(queue.destination()).isInstanceOf(AdoptionRecord.Destination.TierByDelay.class);
        });
        assertThat(AdoptBadInputTest.comments(Files.readString(spec)))
                .contains("as 'queue-a' has consumers and it has none.");
    }

    @Test
    void aVirtualHostThatDoesNotExistIsAnErrorAndWritesNothing(@TempDir Path directory) {
        CommandLine command = RetryCommand.commandLine();
        StringWriter err = new StringWriter();
        command.setOut(new PrintWriter(new StringWriter()));
        command.setErr(new PrintWriter(err));

        int exit = command.execute("--management-uri", broker.broker().managementUri().toString(), "adopt",
                "--vhost", "no-such-vhost", "--out", directory.resolve("retry.yml").toString());

        assertThat(exit).isEqualTo(RetryCommand.ERROR);
        assertThat(err.toString()).startsWith("retry: the virtual host 'no-such-vhost' does not exist on http://");
        assertThat(directory.toFile().list()).isEmpty();
    }

    /** Declares a shape as its post's code does. */
    private static void declare(String shape, Channel channel) throws IOException {
        switch (shape) {
            case "000-per-message-ttl" -> {
                // node-amqp's exchanges are topic exchanges unless told otherwise.
                channel.exchangeDeclare("wait-exchange", "topic", true);
                channel.queueDeclare("wait-queue", true, false, false, Map.of("x-dead-letter-exchange", "primary-exchange"));
                channel.exchangeDeclare("primary-exchange", "topic", true);
                channel.queueDeclare("primary-queue", true, false, false, null);
                for (String key : List.of("routing-key-a", "routing-key-b")) {
                    channel.queueBind("wait-queue", "wait-exchange", key);
                    channel.queueBind("primary-queue", "primary-exchange", key);
                }
            }
            case "001-sneakers" -> {
                // Sneakers' default exchange, then its Maxretry handler's initialisation.
                channel.exchangeDeclare("sneakers", "direct", true);
                channel.queueDeclare("worker_queue", true, false, false,
                        Map.of("x-dead-letter-exchange", "worker_queue-retry"));
                channel.queueBind("worker_queue", "sneakers", "worker_queue");
                for (String name : List.of("worker_queue-retry", "worker_queue-error", "worker_queue-retry-requeue")) {
                    channel.exchangeDeclare(name, "topic", true);
                }
                channel.queueDeclare("worker_queue-retry", true, false, false, Map.of(
                        "x-dead-letter-exchange", "worker_queue-retry-requeue", "x-message-ttl", 60000));
                channel.queueBind("worker_queue-retry", "worker_queue-retry", "#");
                channel.queueDeclare("worker_queue-error", true, false, false, null);
                channel.queueBind("worker_queue-error", "worker_queue-error", "#");
                channel.queueBind("worker_queue", "worker_queue-retry-requeue", "#");
            }
            case "003-master-retry-failed" -> {
                channel.exchangeDeclare("master", "topic", true);
                channel.exchangeDeclare("master.retry", "topic", true);
                channel.exchangeDeclare("master.failed", "topic", true);
                Map<String, List<String>> subscriptions = Map.of("ucenter@user", List.of("user.#", "user.created"),
                        "ucenter@enterprise", List.of("enterprise.#"));
                for (Map.Entry<String, List<String>> subscription : subscriptions.entrySet()) {
                    String queueName = subscription.getKey();
                    channel.queueDeclare(queueName, true, false, false, null);
                    channel.queueDeclare(queueName + "@failed", true, false, false, null);
                    channel.queueDeclare(queueName + "@retry", true, false, false, Map.of(
                            "x-dead-letter-exchange", "master", "x-message-ttl", 30 * 1000));
                    for (String routingKey : subscription.getValue()) {
                        channel.queueBind(queueName, "master", routingKey);
                        channel.queueBind(queueName + "@failed", "master.failed", routingKey);
                        channel.queueBind(queueName + "@retry", "master.retry", routingKey);
                    }
                }
            }
            case "004-dead-letter-loop" -> {
                channel.exchangeDeclare("service_a_inner_exch", "fanout", true);
                channel.exchangeDeclare("dead_letter_exchange", "fanout", true);
                channel.queueDeclare("service_a_input_q", true, false, false,
                        Map.of("x-dead-letter-exchange", "dead_letter_exchange"));
                channel.queueDeclare("dead_letter_queue", true, false, false, Map.of(
                        "x-message-ttl", 60 * 1000, "x-dead-letter-exchange", "service_a_inner_exch"));
                channel.queueBind("dead_letter_queue", "dead_letter_exchange", "");
                channel.queueBind("service_a_input_q", "service_a_inner_exch", "");
            }
            default -> throw new IllegalArgumentException("no such shape: " + shape);
        }
    }

    /**
     * A draft without what names its source, its virtual host and the package made from the virtual host's name, so
     * that a live virtual host's compares with its definitions file's.
     */
    private static String comparable(String draft) {
        return draft.replaceFirst("(?s)^# Drafted by .*?\\.\\n(# Check)", "$1")
                .replaceAll("(?m)^# assumed: the definitions file is an export of one virtual host.*\\n(#.*\\n)*?(?=vhost:)",
                        "")
                .replaceAll("(?m)^# assumed: a Java package made from the virtual host's name.*\\n", "")
                .replaceAll("(?m)^vhost: .*$", "vhost: VHOST")
                .replaceAll("(?m)^package: .*$", "package: PACKAGE");
    }

    private static int adopt(String... arguments) {
        String[] all = new String[arguments.length + 5];
        all[0] = "--uri";
        all[1] = broker.broker().amqpUri(broker.name());
        all[2] = "--management-uri";
        all[3] = broker.broker().managementUri().toString();
        all[4] = "adopt";
        System.arraycopy(arguments, 0, all, 5, arguments.length);
        CommandLine command = RetryCommand.commandLine();
        StringWriter err = new StringWriter();
        command.setOut(new PrintWriter(new StringWriter()));
        command.setErr(new PrintWriter(err));
        int exit = command.execute(all);
        assertThat(err.toString()).isEmpty();
        return exit;
    }
}
