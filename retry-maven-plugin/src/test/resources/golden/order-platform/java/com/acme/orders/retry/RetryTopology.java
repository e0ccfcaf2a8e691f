package com.acme.orders.retry;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.load.Specs;
import java.nio.charset.StandardCharsets;
import javax.annotation.processing.Generated;

/**
 * Every name and retry policy of the services of exchange <code>orders.events</code>, so that no code
 * writes a queue name.
 *
 * <p>The runtime consumes with the model constants: {@link #SPEC}, and one per service, which the spec's own
 * reader builds from the text of the spec when this class is initialized. The nested classes hold each service's
 * queue names as strings.
 *
 * <p>Generated from order-platform.yml; do not edit.
 */
@Generated("io.github.retrytopology:retry-maven-plugin")
public final class RetryTopology {

    /** The virtual host. */
    public static final String VHOST = "orders";

    /** The topic exchange that publishers use. */
    public static final String EXCHANGE = "orders.events";

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
            Specs.parse(spec().getBytes(StandardCharsets.UTF_8), "order-platform.yml");

    /**
     * Service <code>email</code>. Up to 6 attempts, the retries waiting 10s, 1m40s, 1h, 2h and 10h; then the parking
     * lot. Parked at once: com.acme.orders.InvalidOrderException.
     */
    public static final Service EMAIL = SPEC.service("email");

    /**
     * Service <code>ticketing</code>. Up to 6 attempts, the retries waiting 10s, 1m40s, 1h, 2h and 10h; then the
     * parking lot. Parked at once: com.acme.orders.InvalidOrderException.
     */
    public static final Service TICKETING = SPEC.service("ticketing");

    /**
     * Service <code>finance</code>. Up to 8 attempts, the retries waiting 10s, 1m40s, 1h, 2h and 10h, that last
     * delay repeating; then the parking lot. Parked at once: com.acme.orders.InvalidOrderException.
     */
    public static final Service FINANCE = SPEC.service("finance");

    /** The queues of service <code>email</code>. */
    public static final class Email {

        /** The queue the service consumes. */
        public static final String QUEUE = "email";

        /** Tier 1: failed messages wait 10s here, then return to {@link #QUEUE}. */
        public static final String RETRY_1 = "email.retry.1";

        /** Tier 2: failed messages wait 1m40s here, then return to {@link #QUEUE}. */
        public static final String RETRY_2 = "email.retry.2";

        /** Tier 3: failed messages wait 1h here, then return to {@link #QUEUE}. */
        public static final String RETRY_3 = "email.retry.3";

        /** Tier 4: failed messages wait 2h here, then return to {@link #QUEUE}. */
        public static final String RETRY_4 = "email.retry.4";

        /** Tier 5: failed messages wait 10h here, then return to {@link #QUEUE}. */
        public static final String RETRY_5 = "email.retry.5";

        /** Where its messages go when they will not be retried. */
        public static final String PARKING_LOT = "email.parking-lot";

        /** Deliveries in all, the first included. */
        public static final int MAX_ATTEMPTS = 6;

        /** The protocol its consumer speaks, as the spec writes it: {@code amqp-0.9.1} or {@code amqp-1.0}. */
        public static final String PROTOCOL = "amqp-0.9.1";

        private Email() {
        }
    }

    /** The queues of service <code>ticketing</code>. */
    public static final class Ticketing {

        /** The queue the service consumes. */
        public static final String QUEUE = "ticketing";

        /** Tier 1: failed messages wait 10s here, then return to {@link #QUEUE}. */
        public static final String RETRY_1 = "ticketing.retry.1";

        /** Tier 2: failed messages wait 1m40s here, then return to {@link #QUEUE}. */
        public static final String RETRY_2 = "ticketing.retry.2";

        /** Tier 3: failed messages wait 1h here, then return to {@link #QUEUE}. */
        public static final String RETRY_3 = "ticketing.retry.3";

        /** Tier 4: failed messages wait 2h here, then return to {@link #QUEUE}. */
        public static final String RETRY_4 = "ticketing.retry.4";

        /** Tier 5: failed messages wait 10h here, then return to {@link #QUEUE}. */
        public static final String RETRY_5 = "ticketing.retry.5";

        /** Where its messages go when they will not be retried. */
        public static final String PARKING_LOT = "ticketing.parking-lot";

        /** Deliveries in all, the first included. */
        public static final int MAX_ATTEMPTS = 6;

        /** The protocol its consumer speaks, as the spec writes it: {@code amqp-0.9.1} or {@code amqp-1.0}. */
        public static final String PROTOCOL = "amqp-0.9.1";

        private Ticketing() {
        }
    }

    /** The queues of service <code>finance</code>. */
    public static final class Finance {

        /** The queue the service consumes. */
        public static final String QUEUE = "finance";

        /** Tier 1: failed messages wait 10s here, then return to {@link #QUEUE}. */
        public static final String RETRY_1 = "finance.retry.1";

        /** Tier 2: failed messages wait 1m40s here, then return to {@link #QUEUE}. */
        public static final String RETRY_2 = "finance.retry.2";

        /** Tier 3: failed messages wait 1h here, then return to {@link #QUEUE}. */
        public static final String RETRY_3 = "finance.retry.3";

        /** Tier 4: failed messages wait 2h here, then return to {@link #QUEUE}. */
        public static final String RETRY_4 = "finance.retry.4";

        /** Tier 5: failed messages wait 10h here, then return to {@link #QUEUE}. */
        public static final String RETRY_5 = "finance.retry.5";

        /** Where its messages go when they will not be retried. */
        public static final String PARKING_LOT = "finance.parking-lot";

        /** Deliveries in all, the first included. */
        public static final int MAX_ATTEMPTS = 8;

        /** The protocol its consumer speaks, as the spec writes it: {@code amqp-0.9.1} or {@code amqp-1.0}. */
        public static final String PROTOCOL = "amqp-0.9.1";

        private Finance() {
        }
    }

    private RetryTopology() {
    }

    /** The text of order-platform.yml as it was generated from, in pieces that each fit a class file's constant. */
    private static String spec() {
        return String.join("",
                  "# An order platform: three services react to order events, each on its own queue,\n"
                + "# and retry in steps of 10s, 100s, 1h, 2h and 10h, the last one repeating.\n"
                + "version: 1\n"
                + "package: com.acme.orders.retry\n"
                + "vhost: orders\n"
                + "exchange: orders.events\n"
                + "defaults:\n"
                + "  maxAttempts: 6\n"
                + "  delays: [10s, 100s, 1h, 2h, 10h]\n"
                + "  nonRetryable:\n"
                + "    - com.acme.orders.InvalidOrderException\n"
                + "services:\n"
                + "  email:\n"
                + "    routingKeys:\n"
                + "      - order.created\n"
                + "      - order.paid\n"
                + "  ticketing:\n"
                + "    routingKeys:\n"
                + "      - key: order.*\n"
                + "        handler: orderEvent\n"
                + "        payload: com.acme.orders.OrderEvent\n"
                + "  finance:\n"
                + "    routingKeys:\n"
                + "      - key: order.completed\n"
                + "        payload: com.acme.orders.OrderEvent\n"
                + "      - order.refunded\n"
                + "    maxAttempts: 8\n");
    }
}
