package io.github.retrytopology.model.read;

/**
 * Every key of a spec's mappings: its name as written, whether its mapping must hold it, and what it means. The
 * reader reads by these and knows no other key, and the spec's JSON Schema is derived from them, so that an
 * editor is never told of a key the reader refuses, nor misses one it takes. Which mapping takes which key is
 * {@link SpecMapping}'s.
 */
public enum SpecKey {
    VERSION("version", true, "The spec language version: 1."),
    PACKAGE("package", true, "The Java package of the generated code, such as com.acme.media.retry."),
    VHOST("vhost", false, "The RabbitMQ virtual host the definitions create and fill; / by default."),
    EXCHANGE("exchange", true, "The topic exchange publishers use; declared (durable, topic) if missing."),
    QUEUE_SETTINGS("queueSettings", false, "Where TTL, dead-lettering and the delivery limit go: policies (the "
            + "default, re-applied by every import) or arguments (fixed when a queue is created)."),
    DEFAULTS("defaults", false, "Retry settings inherited by every service that does not set its own; lists are "
            + "not merged."),
    SERVICES("services", true, "The consuming services, by lower-kebab-case name, such as cdn-purge."),
    QUEUE("queue", false, "The queue the service consumes, when it keeps the name of the one its consumers read "
            + "today, such as ucenter@user; by default the service's name. Its wait queues, parking lot and policies "
            + "are named after the service all the same."),
    ROUTING_KEYS("routingKeys", true, "The topic binding keys the service consumes, in order: a key, or a mapping "
            + "of key, handler and payload. A delivery goes to the first entry whose key matches."),
    MAX_ATTEMPTS("maxAttempts", false, "Deliveries in all, the first included: 1 means never retry. Required in the "
            + "service or in defaults."),
    DELAYS("delays", false, "The wait before retry 1, 2, 3, ...; the last one repeats. Durations such as 500ms, "
            + "10s, 5m, 2h, 1d."),
    BACKOFF("backoff", false, "Delays that start at initial and multiply by multiplier, up to max; instead of "
            + "delays."),
    QUEUE_TYPE("queueType", false, "The type of all the service's queues: quorum (the default) or classic."),
    DELAY_BY("delayBy", false, "What holds a message until its retry: tier-queues (the default; one wait queue per "
            + "delay, any RabbitMQ) or broker (the quorum queue's own delayed retry, RabbitMQ 4.3.1 and later; over "
            + "amqp-0.9.1, delays of the form [d, 2d, 3d, ...], up to the last)."),
    PROTOCOL("protocol", false, "The protocol the service's consumer speaks: amqp-0.9.1 (the default) or amqp-1.0 "
            + "(RabbitMQ 4.3.1 and later, quorum queues: the broker holds each retry until its delivery time, so any "
            + "delays work; it implies delayBy: broker)."),
    NON_RETRYABLE("nonRetryable", false, "Binary names of exception classes that park a message at once: the "
            + "failure, any superclass or interface of it, or any of its causes."),
    KEY("key", true, "The binding key: words separated by dots, * for exactly one word, # for zero or more."),
    HANDLER("handler", false, "The handler method's name; required for a key with wildcards, otherwise the key's "
            + "words in lower camel case."),
    PAYLOAD("payload", false, "The binary name of the class the body is decoded into, such as "
            + "com.acme.media.AlbumDeleted; without it, the handler gets the raw body."),
    INITIAL("initial", true, "The first delay, such as 10s."),
    MULTIPLIER("multiplier", true, "How much each delay grows: 1 or more, decimals allowed."),
    MAX("max", false, "The longest delay, which then repeats.");

    private final String yamlName;
    private final boolean required;
    private final String description;

    SpecKey(String yamlName, boolean required, String description) {
        this.yamlName = yamlName;
        this.required = required;
        this.description = description;
    }

    /** The key as a spec writes it, such as {@code maxAttempts}. */
    public String yamlName() {
        return yamlName;
    }

    /** Whether the mapping that takes this key must hold it; a key that may be inherited is not. */
    public boolean required() {
        return required;
    }

    /** What the key means, in a sentence or two, for an editor's hover. */
    public String description() {
        return description;
    }
}
