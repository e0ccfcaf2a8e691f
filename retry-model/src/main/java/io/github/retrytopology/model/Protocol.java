package io.github.retrytopology.model;

/**
 * The protocol a service's consumer speaks to RabbitMQ, which decides what holds its retries: over AMQP 1.0 a
 * consumer can tell the broker when to deliver a failed message again, so a retry waits any delay its policy lists.
 */
public enum Protocol {
    /**
     * AMQP 0.9.1, and the default: the {@code RetryingConsumer}, on the RabbitMQ Java client 5.x. Its retries wait in
     * tier queues, or, with {@code delayBy: broker}, in the quorum queue's own delayed retry, whose delays grow
     * linearly ({@code [d, 2d, 3d, ...]}).
     */
    AMQP_0_9_1("amqp-0.9.1"),
    /**
     * AMQP 1.0, RabbitMQ 4's own protocol: a consumer on RabbitMQ's AMQP 1.0 Java client
     * ({@code com.rabbitmq.client:amqp-client} 1.x), on RabbitMQ 4.3.1 and later and quorum queues only. It settles a
     * failed delivery with the {@code modified} outcome, {@code delivery-failed} and the annotation
     * {@code x-opt-delivery-time}, so that the broker holds each retry until its own delivery time: any delays work,
     * with no tier queue, and the broker counts the attempts.
     */
    AMQP_1_0("amqp-1.0");

    private final String id;

    Protocol(String id) {
        this.id = id;
    }

    /** Returns the value the spec uses, such as {@code amqp-1.0}. */
    public String id() {
        return id;
    }

    /** Returns the protocol's version, as OpenTelemetry's {@code network.protocol.version} gives it: {@code 1.0}. */
    public String version() {
        return id.substring("amqp-".length());
    }
}
