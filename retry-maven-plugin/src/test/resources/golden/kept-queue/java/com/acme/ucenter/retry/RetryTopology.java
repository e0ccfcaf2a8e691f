package com.acme.ucenter.retry;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.load.Specs;
import java.nio.charset.StandardCharsets;
import javax.annotation.processing.Generated;

/**
 * Every name and retry policy of the services of exchange <code>ucenter.events</code>, so that no code
 * writes a queue name.
 *
 * <p>The runtime consumes with the model constants: {@link #SPEC}, and one per service, which the spec's own
 * reader builds from the text of the spec when this class is initialized. The nested classes hold each service's
 * queue names as strings.
 *
 * <p>Generated from kept-queue.yml; do not edit.
 */
@Generated("io.github.retrytopology:retry-maven-plugin")
public final class RetryTopology {

    /** The virtual host. */
    public static final String VHOST = "/";

    /** The topic exchange that publishers use. */
    public static final String EXCHANGE = "ucenter.events";

    /**
     * The resource beside this class that holds the definitions for {@code POST /api/definitions},
     * {@code rabbitmqctl import_definitions} and the management UI.
     */
    public static final String DEFINITIONS = "definitions.json";

    /** The resource beside this class that holds the definitions for {@code POST /api/definitions/{vhost}}. */
    public static final String VHOST_DEFINITIONS = "definitions.vhost.json";

    /** The resource beside this class that pictures the topology, as Markdown with a Mermaid diagram. */
    public static final String DIAGRAM = "topology.md";

    /** The whole spec: every service of the exchange. */
    public static final RetrySpec SPEC =
            Specs.parse(spec().getBytes(StandardCharsets.UTF_8), "kept-queue.yml");

    /**
     * Service <code>ucenter-user</code>. Up to 4 attempts, the retries waiting 30s and 5m, that last delay
     * repeating; then the parking lot.
     */
    public static final Service UCENTER_USER = SPEC.service("ucenter-user");

    /**
     * Service <code>orders-worker</code>. Up to 4 attempts, the retries waiting 30s and 5m, that last delay
     * repeating; then the parking lot.
     */
    public static final Service ORDERS_WORKER = SPEC.service("orders-worker");

    /**
     * Service <code>notifications</code>. Up to 4 attempts, the retries waiting 30s and 5m, that last delay
     * repeating; then the parking lot.
     */
    public static final Service NOTIFICATIONS = SPEC.service("notifications");

    /** The queues of service <code>ucenter-user</code>. */
    public static final class UcenterUser {

        /** The queue the service consumes. */
        public static final String QUEUE = "ucenter@user";

        /** Tier 1: failed messages wait 30s here, then return to {@link #QUEUE}. */
        public static final String RETRY_1 = "ucenter-user.retry.1";

        /** Tier 2: failed messages wait 5m here, then return to {@link #QUEUE}. */
        public static final String RETRY_2 = "ucenter-user.retry.2";

        /** Where its messages go when they will not be retried. */
        public static final String PARKING_LOT = "ucenter-user.parking-lot";

        /** Deliveries in all, the first included. */
        public static final int MAX_ATTEMPTS = 4;

        /** The protocol its consumer speaks, as the spec writes it: {@code amqp-0.9.1} or {@code amqp-1.0}. */
        public static final String PROTOCOL = "amqp-0.9.1";

        private UcenterUser() {
        }
    }

    /** The queues of service <code>orders-worker</code>. */
    public static final class OrdersWorker {

        /** The queue the service consumes. */
        public static final String QUEUE = "service_a_input_q";

        /** Tier 1: failed messages wait 30s here, then return to {@link #QUEUE}. */
        public static final String RETRY_1 = "orders-worker.retry.1";

        /** Tier 2: failed messages wait 5m here, then return to {@link #QUEUE}. */
        public static final String RETRY_2 = "orders-worker.retry.2";

        /** Where its messages go when they will not be retried. */
        public static final String PARKING_LOT = "orders-worker.parking-lot";

        /** Deliveries in all, the first included. */
        public static final int MAX_ATTEMPTS = 4;

        /** The protocol its consumer speaks, as the spec writes it: {@code amqp-0.9.1} or {@code amqp-1.0}. */
        public static final String PROTOCOL = "amqp-0.9.1";

        private OrdersWorker() {
        }
    }

    /** The queues of service <code>notifications</code>. */
    public static final class Notifications {

        /** The queue the service consumes. */
        public static final String QUEUE = "notifications";

        /** Tier 1: failed messages wait 30s here, then return to {@link #QUEUE}. */
        public static final String RETRY_1 = "notifications.retry.1";

        /** Tier 2: failed messages wait 5m here, then return to {@link #QUEUE}. */
        public static final String RETRY_2 = "notifications.retry.2";

        /** Where its messages go when they will not be retried. */
        public static final String PARKING_LOT = "notifications.parking-lot";

        /** Deliveries in all, the first included. */
        public static final int MAX_ATTEMPTS = 4;

        /** The protocol its consumer speaks, as the spec writes it: {@code amqp-0.9.1} or {@code amqp-1.0}. */
        public static final String PROTOCOL = "amqp-0.9.1";

        private Notifications() {
        }
    }

    private RetryTopology() {
    }

    /** The text of kept-queue.yml as it was generated from, in pieces that each fit a class file's constant. */
    private static String spec() {
        return String.join("",
                  "# Services adopted from a hand-rolled topology keep the queues their consumers read today; their wait queues,\n"
                + "# parking lots and policies are named after the services.\n"
                + "version: 1\n"
                + "package: com.acme.ucenter.retry\n"
                + "exchange: ucenter.events\n"
                + "defaults:\n"
                + "  maxAttempts: 4\n"
                + "  delays: [30s, 5m]\n"
                + "services:\n"
                + "  ucenter-user:\n"
                + "    queue: ucenter@user\n"
                + "    routingKeys: [user.created, user.deleted]\n"
                + "  orders-worker:\n"
                + "    queue: service_a_input_q\n"
                + "    routingKeys: [order.created]\n"
                + "    queueType: classic\n"
                + "  notifications:\n"
                + "    queue: notifications\n"
                + "    routingKeys: [user.created]\n");
    }
}
