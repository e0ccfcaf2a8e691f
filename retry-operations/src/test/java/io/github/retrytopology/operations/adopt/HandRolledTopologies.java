package io.github.retrytopology.operations.adopt;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.BuiltinExchangeType;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.GetResponse;
import io.github.retrytopology.model.topology.Policy;
import io.github.retrytopology.runtime.testing.TestManagement;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * The retry topologies that teams hand-roll, as the blog posts in {@code shared/seeds/} build them, with their own
 * names and arguments, declared on a real broker the way their code declares them; and messages put where those
 * topologies put them: ready in the work queue, waiting in a wait queue after a failure (failed by the shape's
 * own consumer logic, so the broker writes its own {@code x-death}), and given up in a failed queue.
 *
 * <p>Each message has a message id, and the {@link Inventory} says where it is and how many of its attempts
 * failed, which is what an adoption must carry over.
 */
public enum HandRolledTopologies {

    /**
     * 000: one wait queue, per-message TTL: the consumer republishes a failed message to {@code wait-exchange} with
     * an expiration, and {@code wait-queue} dead-letters it back to {@code primary-exchange}.
     */
    WAIT_QUEUE_PER_MESSAGE_TTL("primary-queue", List.of("wait-queue"), null) {
        @Override
        void declare(Channel channel, TestManagement management, String vhost) throws IOException {
            channel.exchangeDeclare("primary-exchange", BuiltinExchangeType.TOPIC, true);
            channel.exchangeDeclare("wait-exchange", BuiltinExchangeType.TOPIC, true);
            channel.queueDeclare("wait-queue", true, false, false, Map.of("x-dead-letter-exchange", "primary-exchange"));
            channel.queueDeclare("primary-queue", true, false, false, null);
            for (String key : keys()) {
                channel.queueBind("wait-queue", "wait-exchange", key);
                channel.queueBind("primary-queue", "primary-exchange", key);
            }
        }

        @Override
        List<String> keys() {
            return List.of("photo.deleted.site-a", "photo.deleted.site-b");
        }

        @Override
        void fail(Channel channel, GetResponse delivery) throws IOException {
            AMQP.BasicProperties retry = delivery.getProps().builder().expiration("10000").build();
            publishConfirmed(channel, "wait-exchange", delivery.getEnvelope().getRoutingKey(), retry, delivery.getBody());
            channel.basicAck(delivery.getEnvelope().getDeliveryTag(), false);
        }

        @Override
        String exchange() {
            return "primary-exchange";
        }
    },

    /**
     * 001: Sneakers' maxretry handler for a worker queue {@code downloads}: a rejected delivery dead-letters to
     * {@code downloads-retry}, whose queue waits 60 s and dead-letters to {@code downloads-retry-requeue}, which is
     * bound back to the worker queue; given up, it is published to {@code downloads-error}.
     */
    SNEAKERS("downloads", List.of("downloads-retry"), "downloads-error") {
        @Override
        void declare(Channel channel, TestManagement management, String vhost) throws IOException {
            channel.exchangeDeclare("sneakers", BuiltinExchangeType.DIRECT, true);
            for (String name : List.of("downloads-retry", "downloads-error", "downloads-retry-requeue")) {
                channel.exchangeDeclare(name, BuiltinExchangeType.TOPIC, true);
            }
            channel.queueDeclare("downloads-retry", true, false, false,
                    Map.of("x-dead-letter-exchange", "downloads-retry-requeue", "x-message-ttl", 60000));
            channel.queueBind("downloads-retry", "downloads-retry", "#");
            channel.queueDeclare("downloads-error", true, false, false, null);
            channel.queueBind("downloads-error", "downloads-error", "#");
            channel.queueDeclare("downloads", true, false, false, Map.of("x-dead-letter-exchange", "downloads-retry"));
            channel.queueBind("downloads", "sneakers", "downloads");
            channel.queueBind("downloads", "downloads-retry-requeue", "#");
        }

        @Override
        List<String> keys() {
            return List.of("downloads");
        }

        @Override
        void fail(Channel channel, GetResponse delivery) throws IOException {
            channel.basicReject(delivery.getEnvelope().getDeliveryTag(), false);
        }

        @Override
        void giveUp(Channel channel, GetResponse delivery) throws IOException {
            publishConfirmed(channel, "downloads-error", delivery.getEnvelope().getRoutingKey(), delivery.getProps(),
                    delivery.getBody());
            channel.basicAck(delivery.getEnvelope().getDeliveryTag(), false);
        }

        @Override
        String exchange() {
            return "sneakers";
        }
    },

    /**
     * 002: one delay queue per level, each with its own TTL, dead-lettering back to the work queue's exchange under
     * its routing key; the consumer publishes a failed message to the level its attempt has reached.
     */
    DELAY_QUEUE_PER_LEVEL("push.notify", List.of("push.delay.30s", "push.delay.1m", "push.delay.5m"), null) {
        @Override
        void declare(Channel channel, TestManagement management, String vhost) throws IOException {
            channel.exchangeDeclare("push.exchange", BuiltinExchangeType.DIRECT, true);
            channel.queueDeclare("push.notify", true, false, false, null);
            channel.queueBind("push.notify", "push.exchange", "push.notify");
            Map<String, Integer> levels = new LinkedHashMap<>();
            levels.put("push.delay.30s", 30_000);
            levels.put("push.delay.1m", 60_000);
            levels.put("push.delay.5m", 300_000);
            for (Map.Entry<String, Integer> level : levels.entrySet()) {
                channel.queueDeclare(level.getKey(), true, false, false, Map.of(
                        "x-message-ttl", level.getValue(),
                        "x-dead-letter-exchange", "push.exchange",
                        "x-dead-letter-routing-key", "push.notify",
                        "x-expires", 86_400_000));
            }
        }

        @Override
        List<String> keys() {
            return List.of("push.notify");
        }

        @Override
        void fail(Channel channel, GetResponse delivery) throws IOException {
            publishConfirmed(channel, "", "push.delay.30s", delivery.getProps(), delivery.getBody());
            channel.basicAck(delivery.getEnvelope().getDeliveryTag(), false);
        }

        @Override
        String exchange() {
            return "push.exchange";
        }
    },

    /**
     * 003: {@code master}, {@code master.retry} and {@code master.failed}, a queue per subscription
     * ({@code ucenter@user}) with its {@code @retry} queue (30 s, dead-lettering to {@code master}) and its
     * {@code @failed} queue.
     */
    MASTER_RETRY_FAILED("ucenter@user", List.of("ucenter@user@retry"), "ucenter@user@failed") {
        @Override
        void declare(Channel channel, TestManagement management, String vhost) throws IOException {
            for (String name : List.of("master", "master.retry", "master.failed")) {
                channel.exchangeDeclare(name, BuiltinExchangeType.TOPIC, true);
            }
            channel.queueDeclare("ucenter@user", true, false, false, null);
            channel.queueDeclare("ucenter@user@failed", true, false, false, null);
            channel.queueDeclare("ucenter@user@retry", true, false, false,
                    Map.of("x-dead-letter-exchange", "master", "x-message-ttl", 30_000));
            for (String key : keys()) {
                channel.queueBind("ucenter@user", "master", key);
                channel.queueBind("ucenter@user@failed", "master.failed", key);
                channel.queueBind("ucenter@user@retry", "master.retry", key);
            }
        }

        @Override
        List<String> keys() {
            return List.of("user.created", "user.updated");
        }

        @Override
        void fail(Channel channel, GetResponse delivery) throws IOException {
            publishConfirmed(channel, "master.retry", delivery.getEnvelope().getRoutingKey(), delivery.getProps(),
                    delivery.getBody());
            channel.basicAck(delivery.getEnvelope().getDeliveryTag(), false);
        }

        @Override
        void giveUp(Channel channel, GetResponse delivery) throws IOException {
            publishConfirmed(channel, "master.failed", delivery.getEnvelope().getRoutingKey(), delivery.getProps(),
                    delivery.getBody());
            channel.basicAck(delivery.getEnvelope().getDeliveryTag(), false);
        }

        @Override
        String exchange() {
            return "master";
        }
    },

    /**
     * 004: a dead-letter loop: {@code service_a_input_q} rejects into the fanout {@code dead_letter_exchange}, whose
     * {@code dead_letter_queue} waits and dead-letters back into the fanout {@code service_a_inner_exch}.
     */
    DEAD_LETTER_LOOP("service_a_input_q", List.of("dead_letter_queue"), null) {
        @Override
        void declare(Channel channel, TestManagement management, String vhost) throws IOException {
            channel.exchangeDeclare("service_a_inner_exch", BuiltinExchangeType.FANOUT);
            channel.exchangeDeclare("dead_letter_exchange", BuiltinExchangeType.FANOUT);
            channel.queueDeclare("service_a_input_q", true, false, false,
                    Map.of("x-dead-letter-exchange", "dead_letter_exchange"));
            channel.queueDeclare("dead_letter_queue", true, false, false,
                    Map.of("x-message-ttl", 20_000, "x-dead-letter-exchange", "service_a_inner_exch"));
            channel.queueBind("dead_letter_queue", "dead_letter_exchange", "");
            channel.queueBind("service_a_input_q", "service_a_inner_exch", "");
        }

        @Override
        List<String> keys() {
            return List.of("");
        }

        @Override
        void fail(Channel channel, GetResponse delivery) throws IOException {
            channel.basicReject(delivery.getEnvelope().getDeliveryTag(), false);
        }

        @Override
        String exchange() {
            return "service_a_inner_exch";
        }
    },

    /**
     * Sneakers' shape with its dead-lettering and TTL in policies rather than queue arguments, as a team that
     * learnt that arguments cannot change would have it.
     */
    POLICIES("uploads", List.of("uploads-retry"), "uploads-error") {
        @Override
        void declare(Channel channel, TestManagement management, String vhost) throws IOException {
            channel.exchangeDeclare("sneakers", BuiltinExchangeType.DIRECT, true);
            for (String name : List.of("uploads-retry", "uploads-error", "uploads-retry-requeue")) {
                channel.exchangeDeclare(name, BuiltinExchangeType.TOPIC, true);
            }
            management.putPolicy(vhost, new Policy("uploads-work", "^uploads$", "queues", 10,
                    Map.of("dead-letter-exchange", "uploads-retry")));
            management.putPolicy(vhost, new Policy("uploads-wait", "^uploads-retry$", "queues", 10,
                    Map.of("dead-letter-exchange", "uploads-retry-requeue", "message-ttl", 60_000)));
            channel.queueDeclare("uploads-retry", true, false, false, null);
            channel.queueBind("uploads-retry", "uploads-retry", "#");
            channel.queueDeclare("uploads-error", true, false, false, null);
            channel.queueBind("uploads-error", "uploads-error", "#");
            channel.queueDeclare("uploads", true, false, false, null);
            channel.queueBind("uploads", "sneakers", "uploads");
            channel.queueBind("uploads", "uploads-retry-requeue", "#");
        }

        @Override
        List<String> keys() {
            return List.of("uploads");
        }

        @Override
        void fail(Channel channel, GetResponse delivery) throws IOException {
            channel.basicReject(delivery.getEnvelope().getDeliveryTag(), false);
        }

        @Override
        void giveUp(Channel channel, GetResponse delivery) throws IOException {
            publishConfirmed(channel, "uploads-error", delivery.getEnvelope().getRoutingKey(), delivery.getProps(),
                    delivery.getBody());
            channel.basicAck(delivery.getEnvelope().getDeliveryTag(), false);
        }

        @Override
        String exchange() {
            return "sneakers";
        }
    };

    /** Where a message is, and how many of its attempts failed. */
    public record Placed(String queue, int failedAttempts) {
    }

    /** Every message put in a topology, by message id. */
    public record Inventory(Map<String, Placed> messages) {

        public long in(String queue) {
            return messages.values().stream().filter(placed -> placed.queue().equals(queue)).count();
        }
    }

    private final String workQueue;
    private final List<String> waitQueues;
    private final String failedQueue;

    HandRolledTopologies(String workQueue, List<String> waitQueues, String failedQueue) {
        this.workQueue = workQueue;
        this.waitQueues = waitQueues;
        this.failedQueue = failedQueue;
    }

    /** The queue the team's consumer consumes. */
    public String workQueue() {
        return workQueue;
    }

    /** The queues that hold a failed message until its retry, first level first. */
    public List<String> waitQueues() {
        return waitQueues;
    }

    /** The queue that keeps what was given up, if the shape has one. */
    public String failedQueue() {
        return failedQueue;
    }

    /** Declares the topology in a virtual host, as the post's code does. */
    abstract void declare(Channel channel, TestManagement management, String vhost) throws IOException;

    /** The routing keys the work queue is bound with; a fanout's binding has the empty key. */
    abstract List<String> keys();

    /** The exchange publishers publish to. */
    abstract String exchange();

    /** Fails a delivery taken from the work queue as the shape's consumer does: it goes to wait. */
    abstract void fail(Channel channel, GetResponse delivery) throws IOException;

    /** Gives a delivery up as the shape's consumer does, to its failed queue. */
    void giveUp(Channel channel, GetResponse delivery) throws IOException {
        throw new UnsupportedOperationException(name() + " drops what it gives up: it has no failed queue");
    }

    /**
     * Declares the topology and puts messages in it: {@code waiting} failed once and waiting for their retry,
     * {@code failed} given up after one failure (where the shape keeps them), then {@code ready} in the work queue,
     * published last, never delivered.
     */
    public Inventory populate(Channel channel, TestManagement management, String vhost, String prefix, int ready,
            int waiting, int failed) throws IOException {
        declare(channel, management, vhost);
        channel.confirmSelect();
        Map<String, Placed> messages = new LinkedHashMap<>();
        int published = 0;
        for (int i = 0; i < waiting + (failedQueue == null ? 0 : failed); i++) {
            publish(channel, prefix + "-" + published++);
        }
        for (int i = 0; i < waiting; i++) {
            GetResponse delivery = take(channel);
            fail(channel, delivery);
            messages.put(delivery.getProps().getMessageId(), new Placed(waitQueues.get(0), 1));
        }
        for (int i = 0; failedQueue != null && i < failed; i++) {
            GetResponse delivery = take(channel);
            giveUp(channel, delivery);
            messages.put(delivery.getProps().getMessageId(), new Placed(failedQueue, 1));
        }
        for (int i = 0; i < ready; i++) {
            String id = prefix + "-" + published++;
            publish(channel, id);
            messages.put(id, new Placed(workQueue, 0));
        }
        awaitConfirms(channel);
        return new Inventory(messages);
    }

    private GetResponse take(Channel channel) throws IOException {
        GetResponse delivery = channel.basicGet(workQueue, false);
        if (delivery == null) {
            throw new IllegalStateException(workQueue + " is empty: the message published to it did not arrive");
        }
        return delivery;
    }

    private void publish(Channel channel, String id) throws IOException {
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().messageId(id).deliveryMode(2)
                .contentType("text/plain").build();
        channel.basicPublish(exchange(), keys().get(0).isEmpty() ? "" : keys().get(0), true, properties,
                id.getBytes(StandardCharsets.UTF_8));
        awaitConfirms(channel);
    }

    static void publishConfirmed(Channel channel, String exchange, String key, AMQP.BasicProperties properties,
            byte[] body) throws IOException {
        channel.basicPublish(exchange, key, true, properties, body);
        awaitConfirms(channel);
    }

    private static void awaitConfirms(Channel channel) throws IOException {
        try {
            channel.waitForConfirmsOrDie(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the broker confirmed", e);
        } catch (TimeoutException e) {
            throw new IOException("the broker did not confirm within 30 s", e);
        }
    }
}
