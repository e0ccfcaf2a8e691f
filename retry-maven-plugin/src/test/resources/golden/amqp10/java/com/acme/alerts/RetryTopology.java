package com.acme.alerts;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.load.Specs;
import java.nio.charset.StandardCharsets;
import javax.annotation.processing.Generated;

/**
 * Every name and retry policy of the services of exchange <code>alerts.events</code>, so that no code
 * writes a queue name.
 *
 * <p>The runtime consumes with the model constants: {@link #SPEC}, and one per service, which the spec's own
 * reader builds from the text of the spec when this class is initialized. The nested classes hold each service's
 * queue names as strings.
 *
 * <p>Generated from amqp10.yml; do not edit.
 */
@Generated("io.github.retrytopology:retry-maven-plugin")
public final class RetryTopology {

    /** The virtual host. */
    public static final String VHOST = "/";

    /** The topic exchange that publishers use. */
    public static final String EXCHANGE = "alerts.events";

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
            Specs.parse(spec().getBytes(StandardCharsets.UTF_8), "amqp10.yml");

    /**
     * Service <code>email</code>. Up to 4 attempts, consumed over AMQP 1.0, the broker holding each retry back until
     * its delivery time: 10s, 1m and 10m (after a crash, 10s × the retry's number, up to 10m); then the parking lot.
     */
    public static final Service EMAIL = SPEC.service("email");

    /**
     * Service <code>push</code>. Up to 8 attempts, consumed over AMQP 1.0, the broker holding each retry back until
     * its delivery time: 1s, 2s, 4s, 8s, 16s, 32s and 1m (after a crash, 1s × the retry's number, up to 1m); then
     * the parking lot.
     */
    public static final Service PUSH = SPEC.service("push");

    /**
     * Service <code>sms</code>. Up to 3 attempts, the retries waiting 5s and 30s; then the parking lot.
     */
    public static final Service SMS = SPEC.service("sms");

    /** The queues of service <code>email</code>. */
    public static final class Email {

        /** The queue the service consumes. */
        public static final String QUEUE = "email";

        /** Where its messages go when they will not be retried. */
        public static final String PARKING_LOT = "email.parking-lot";

        /** Deliveries in all, the first included. */
        public static final int MAX_ATTEMPTS = 4;

        /** The protocol its consumer speaks, as the spec writes it: {@code amqp-0.9.1} or {@code amqp-1.0}. */
        public static final String PROTOCOL = "amqp-1.0";

        private Email() {
        }
    }

    /** The queues of service <code>push</code>. */
    public static final class Push {

        /** The queue the service consumes. */
        public static final String QUEUE = "push";

        /** Where its messages go when they will not be retried. */
        public static final String PARKING_LOT = "push.parking-lot";

        /** Deliveries in all, the first included. */
        public static final int MAX_ATTEMPTS = 8;

        /** The protocol its consumer speaks, as the spec writes it: {@code amqp-0.9.1} or {@code amqp-1.0}. */
        public static final String PROTOCOL = "amqp-1.0";

        private Push() {
        }
    }

    /** The queues of service <code>sms</code>. */
    public static final class Sms {

        /** The queue the service consumes. */
        public static final String QUEUE = "sms";

        /** Tier 1: failed messages wait 5s here, then return to {@link #QUEUE}. */
        public static final String RETRY_1 = "sms.retry.1";

        /** Tier 2: failed messages wait 30s here, then return to {@link #QUEUE}. */
        public static final String RETRY_2 = "sms.retry.2";

        /** Where its messages go when they will not be retried. */
        public static final String PARKING_LOT = "sms.parking-lot";

        /** Deliveries in all, the first included. */
        public static final int MAX_ATTEMPTS = 3;

        /** The protocol its consumer speaks, as the spec writes it: {@code amqp-0.9.1} or {@code amqp-1.0}. */
        public static final String PROTOCOL = "amqp-0.9.1";

        private Sms() {
        }
    }

    private RetryTopology() {
    }

    /** The text of amqp10.yml as it was generated from, in pieces that each fit a class file's constant. */
    private static String spec() {
        return String.join("",
                  "# Consumed over AMQP 1.0 (RabbitMQ 4.3.1 and later): the broker holds each retry until its delivery time, so any\n"
                + "# delays work without tier queues: email waits 10s, 1m and 10m, push grows from 1s to 1m; sms keeps tier queues.\n"
                + "version: 1\n"
                + "package: com.acme.alerts\n"
                + "exchange: alerts.events\n"
                + "services:\n"
                + "  email:\n"
                + "    routingKeys: [alert.raised]\n"
                + "    protocol: amqp-1.0\n"
                + "    maxAttempts: 4\n"
                + "    delays: [10s, 1m, 10m]\n"
                + "  push:\n"
                + "    routingKeys: [alert.escalated]\n"
                + "    protocol: amqp-1.0\n"
                + "    delayBy: broker\n"
                + "    maxAttempts: 8\n"
                + "    backoff: {initial: 1s, multiplier: 2, max: 1m}\n"
                + "  sms:\n"
                + "    routingKeys: [alert.cleared]\n"
                + "    maxAttempts: 3\n"
                + "    delays: [5s, 30s]\n");
    }
}
