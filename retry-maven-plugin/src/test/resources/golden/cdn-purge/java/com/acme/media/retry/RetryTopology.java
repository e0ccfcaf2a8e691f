package com.acme.media.retry;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.load.Specs;
import java.nio.charset.StandardCharsets;
import javax.annotation.processing.Generated;

/**
 * Every name and retry policy of the services of exchange <code>media.events</code>, so that no code
 * writes a queue name.
 *
 * <p>The runtime consumes with the model constants: {@link #SPEC}, and one per service, which the spec's own
 * reader builds from the text of the spec when this class is initialized. The nested classes hold each service's
 * queue names as strings.
 *
 * <p>Generated from cdn-purge.yml; do not edit.
 */
@Generated("io.github.retrytopology:retry-maven-plugin")
public final class RetryTopology {

    /** The virtual host. */
    public static final String VHOST = "/";

    /** The topic exchange that publishers use. */
    public static final String EXCHANGE = "media.events";

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
            Specs.parse(spec().getBytes(StandardCharsets.UTF_8), "cdn-purge.yml");

    /**
     * Service <code>cdn-purge</code>. Up to 5 attempts, the retries waiting 10s, 30s, 1m30s and 4m30s; then the
     * parking lot. Parked at once: java.lang.IllegalArgumentException.
     */
    public static final Service CDN_PURGE = SPEC.service("cdn-purge");

    /** The queues of service <code>cdn-purge</code>. */
    public static final class CdnPurge {

        /** The queue the service consumes. */
        public static final String QUEUE = "cdn-purge";

        /** Tier 1: failed messages wait 10s here, then return to {@link #QUEUE}. */
        public static final String RETRY_1 = "cdn-purge.retry.1";

        /** Tier 2: failed messages wait 30s here, then return to {@link #QUEUE}. */
        public static final String RETRY_2 = "cdn-purge.retry.2";

        /** Tier 3: failed messages wait 1m30s here, then return to {@link #QUEUE}. */
        public static final String RETRY_3 = "cdn-purge.retry.3";

        /** Tier 4: failed messages wait 4m30s here, then return to {@link #QUEUE}. */
        public static final String RETRY_4 = "cdn-purge.retry.4";

        /** Where its messages go when they will not be retried. */
        public static final String PARKING_LOT = "cdn-purge.parking-lot";

        /** Deliveries in all, the first included. */
        public static final int MAX_ATTEMPTS = 5;

        /** The protocol its consumer speaks, as the spec writes it: {@code amqp-0.9.1} or {@code amqp-1.0}. */
        public static final String PROTOCOL = "amqp-0.9.1";

        private CdnPurge() {
        }
    }

    private RetryTopology() {
    }

    /** The text of cdn-purge.yml as it was generated from, in pieces that each fit a class file's constant. */
    private static String spec() {
        return String.join("",
                  "# The CDN purge service of a photo site. The CDN's API refuses purge requests at\n"
                + "# peak hours (\"507 queue is full\"), so purges are retried with growing delays:\n"
                + "# 10s, 30s, 1m30s, 4m30s.\n"
                + "version: 1\n"
                + "package: com.acme.media.retry\n"
                + "exchange: media.events\n"
                + "services:\n"
                + "  cdn-purge:\n"
                + "    routingKeys:\n"
                + "      - photo.deleted\n"
                + "      - album.deleted\n"
                + "    maxAttempts: 5\n"
                + "    backoff: {initial: 10s, multiplier: 3, max: 30m}\n"
                + "    nonRetryable: [java.lang.IllegalArgumentException]\n");
    }
}
