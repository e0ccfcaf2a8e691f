package com.acme.notify;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.load.Specs;
import java.nio.charset.StandardCharsets;
import javax.annotation.processing.Generated;

/**
 * Every name and retry policy of the services of exchange <code>notify.events</code>, so that no code
 * writes a queue name.
 *
 * <p>The runtime consumes with the model constants: {@link #SPEC}, and one per service, which the spec's own
 * reader builds from the text of the spec when this class is initialized. The nested classes hold each service's
 * queue names as strings.
 *
 * <p>Generated from broker-delay.yml; do not edit.
 */
@Generated("io.github.retrytopology:retry-maven-plugin")
public final class RetryTopology {

    /** The virtual host. */
    public static final String VHOST = "/";

    /** The topic exchange that publishers use. */
    public static final String EXCHANGE = "notify.events";

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
            Specs.parse(spec().getBytes(StandardCharsets.UTF_8), "broker-delay.yml");

    /**
     * Service <code>email</code>. Up to 6 attempts, the broker holding each retry back 1s × the retry's number, up
     * to 3s; then the parking lot.
     */
    public static final Service EMAIL = SPEC.service("email");

    /**
     * Service <code>sms</code>. Up to 6 attempts, the retries waiting 10s and 1m, that last delay repeating; then
     * the parking lot.
     */
    public static final Service SMS = SPEC.service("sms");

    /** The queues of service <code>email</code>. */
    public static final class Email {

        /** The queue the service consumes. */
        public static final String QUEUE = "email";

        /** Where its messages go when they will not be retried. */
        public static final String PARKING_LOT = "email.parking-lot";

        /** Deliveries in all, the first included. */
        public static final int MAX_ATTEMPTS = 6;

        /** The protocol its consumer speaks, as the spec writes it: {@code amqp-0.9.1} or {@code amqp-1.0}. */
        public static final String PROTOCOL = "amqp-0.9.1";

        private Email() {
        }
    }

    /** The queues of service <code>sms</code>. */
    public static final class Sms {

        /** The queue the service consumes. */
        public static final String QUEUE = "sms";

        /** Tier 1: failed messages wait 10s here, then return to {@link #QUEUE}. */
        public static final String RETRY_1 = "sms.retry.1";

        /** Tier 2: failed messages wait 1m here, then return to {@link #QUEUE}. */
        public static final String RETRY_2 = "sms.retry.2";

        /** Where its messages go when they will not be retried. */
        public static final String PARKING_LOT = "sms.parking-lot";

        /** Deliveries in all, the first included. */
        public static final int MAX_ATTEMPTS = 6;

        /** The protocol its consumer speaks, as the spec writes it: {@code amqp-0.9.1} or {@code amqp-1.0}. */
        public static final String PROTOCOL = "amqp-0.9.1";

        private Sms() {
        }
    }

    private RetryTopology() {
    }

    /** The text of broker-delay.yml as it was generated from, in pieces that each fit a class file's constant. */
    private static String spec() {
        return String.join("",
                  "# The broker delays email's retries (RabbitMQ 4.3.1 and later): 1s, 2s, 3s, then 3s again; sms keeps tier queues.\n"
                + "version: 1\n"
                + "package: com.acme.notify\n"
                + "exchange: notify.events\n"
                + "defaults:\n"
                + "  maxAttempts: 6\n"
                + "  delayBy: broker\n"
                + "  delays: [1s, 2s, 3s]\n"
                + "services:\n"
                + "  email:\n"
                + "    routingKeys: [order.created]\n"
                + "  sms:\n"
                + "    routingKeys: [order.shipped]\n"
                + "    delayBy: tier-queues\n"
                + "    delays: [10s, 1m]\n");
    }
}
