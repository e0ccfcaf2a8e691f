package com.acme.shop.retry;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.load.Specs;
import java.nio.charset.StandardCharsets;
import javax.annotation.processing.Generated;

/**
 * Every name and retry policy of the services of exchange <code>shop.events</code>, so that no code
 * writes a queue name.
 *
 * <p>The runtime consumes with the model constants: {@link #SPEC}, and one per service, which the spec's own
 * reader builds from the text of the spec when this class is initialized. The nested classes hold each service's
 * queue names as strings.
 *
 * <p>Generated from shared-routing-key.yml; do not edit.
 */
@Generated("io.github.retrytopology:retry-maven-plugin")
public final class RetryTopology {

    /** The virtual host. */
    public static final String VHOST = "/";

    /** The topic exchange that publishers use. */
    public static final String EXCHANGE = "shop.events";

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
            Specs.parse(spec().getBytes(StandardCharsets.UTF_8), "shared-routing-key.yml");

    /**
     * Service <code>invoicing</code>. Up to 3 attempts, the retries waiting 1s and 5s; then the parking lot.
     */
    public static final Service INVOICING = SPEC.service("invoicing");

    /**
     * Service <code>warehouse</code>. Up to 3 attempts, the retries waiting 1s and 5s; then the parking lot.
     */
    public static final Service WAREHOUSE = SPEC.service("warehouse");

    /** The queues of service <code>invoicing</code>. */
    public static final class Invoicing {

        /** The queue the service consumes. */
        public static final String QUEUE = "invoicing";

        /** Tier 1: failed messages wait 1s here, then return to {@link #QUEUE}. */
        public static final String RETRY_1 = "invoicing.retry.1";

        /** Tier 2: failed messages wait 5s here, then return to {@link #QUEUE}. */
        public static final String RETRY_2 = "invoicing.retry.2";

        /** Where its messages go when they will not be retried. */
        public static final String PARKING_LOT = "invoicing.parking-lot";

        /** Deliveries in all, the first included. */
        public static final int MAX_ATTEMPTS = 3;

        /** The protocol its consumer speaks, as the spec writes it: {@code amqp-0.9.1} or {@code amqp-1.0}. */
        public static final String PROTOCOL = "amqp-0.9.1";

        private Invoicing() {
        }
    }

    /** The queues of service <code>warehouse</code>. */
    public static final class Warehouse {

        /** The queue the service consumes. */
        public static final String QUEUE = "warehouse";

        /** Tier 1: failed messages wait 1s here, then return to {@link #QUEUE}. */
        public static final String RETRY_1 = "warehouse.retry.1";

        /** Tier 2: failed messages wait 5s here, then return to {@link #QUEUE}. */
        public static final String RETRY_2 = "warehouse.retry.2";

        /** Where its messages go when they will not be retried. */
        public static final String PARKING_LOT = "warehouse.parking-lot";

        /** Deliveries in all, the first included. */
        public static final int MAX_ATTEMPTS = 3;

        /** The protocol its consumer speaks, as the spec writes it: {@code amqp-0.9.1} or {@code amqp-1.0}. */
        public static final String PROTOCOL = "amqp-0.9.1";

        private Warehouse() {
        }
    }

    private RetryTopology() {
    }

    /** The text of shared-routing-key.yml as it was generated from, in pieces that each fit a class file's constant. */
    private static String spec() {
        return String.join("",
                  "# Two services bound to the same routing key: when one fails, its retry must reach\n"
                + "# only its own queue, never the other service again.\n"
                + "version: 1\n"
                + "package: com.acme.shop.retry\n"
                + "exchange: shop.events\n"
                + "defaults:\n"
                + "  maxAttempts: 3\n"
                + "  delays: [1s, 5s]\n"
                + "services:\n"
                + "  invoicing:\n"
                + "    routingKeys: [order.placed]\n"
                + "  warehouse:\n"
                + "    routingKeys: [order.placed]\n");
    }
}
