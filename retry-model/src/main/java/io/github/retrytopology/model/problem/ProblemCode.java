package io.github.retrytopology.model.problem;

/**
 * The rules a spec can break. Each has a stable {@link #id()} that tools and tests may rely on; the
 * "Problems" section of docs/plugin.md lists them all.
 */
public enum ProblemCode {
    /** The file is not valid UTF-8. */
    NOT_UTF8("not-utf8"),
    /** The file is larger than a spec can reasonably be. */
    FILE_TOO_LARGE("file-too-large"),
    /** The file holds no YAML document. */
    EMPTY_FILE("empty-file"),
    /** The file is not well-formed YAML, or exceeds the reader's limits. */
    YAML_SYNTAX("yaml-syntax"),
    /** The file holds more than one YAML document. */
    MULTIPLE_DOCUMENTS("multiple-documents"),
    /** A value carries an explicit YAML tag, such as {@code !!str} or one that names a Java class. */
    EXPLICIT_TAG("explicit-tag"),
    /** A value holds a lone UTF-16 surrogate, from an escape, which is no character. */
    BAD_CHARACTER("bad-character"),
    /** A mapping names the same key twice. */
    DUPLICATE_KEY("duplicate-key"),
    /** Two services share a name. */
    DUPLICATE_SERVICE("duplicate-service"),
    /** A key that this place does not know. */
    UNKNOWN_KEY("unknown-key"),
    /** A required key is absent. */
    MISSING_KEY("missing-key"),
    /** A value has the wrong shape: a list where a mapping belongs, a word where a number belongs. */
    WRONG_TYPE("wrong-type"),
    /** A value that is not one of the values this key takes. */
    UNKNOWN_VALUE("unknown-value"),
    /** The spec's {@code version} is not one this reader understands. */
    UNSUPPORTED_VERSION("unsupported-version"),
    /** A duration that is not a whole number with a unit, or not positive. */
    BAD_DURATION("bad-duration"),
    /** A delay above RabbitMQ's TTL limit of 2^32-1 milliseconds. */
    DELAY_TOO_LONG("delay-too-long"),
    /** {@code maxAttempts} below 1 or too large. */
    BAD_MAX_ATTEMPTS("bad-max-attempts"),
    /** A backoff whose multiplier or bounds make no sense. */
    BAD_BACKOFF("bad-backoff"),
    /** One mapping sets both {@code delays} and {@code backoff}. */
    DELAYS_AND_BACKOFF("delays-and-backoff"),
    /** A service that retries but has no delays to wait between retries. */
    MISSING_DELAYS("missing-delays"),
    /** A service whose retries the broker delays, with delays it cannot express or queues it cannot delay in. */
    BROKER_DELAY("broker-delay"),
    /**
     * A service consumed over AMQP 1.0 ({@code protocol: amqp-1.0}) whose retries would wait in tier queues, or
     * whose queues are classic: the broker holds its retries until their delivery time, which only quorum queues do.
     */
    AMQP10_DELAY("amqp10-delay"),
    /** A service whose delays expand to more wait queues than is sane. */
    TOO_MANY_TIERS("too-many-tiers"),
    /** A spec whose services need more queues in all than is sane. */
    TOO_MANY_QUEUES("too-many-queues"),
    /** The Java package is not a valid package name. */
    BAD_PACKAGE("bad-package"),
    /** The exchange name is not one RabbitMQ lets us declare. */
    BAD_EXCHANGE("bad-exchange"),
    /** A service's {@code queue} is not a name RabbitMQ lets us declare. */
    BAD_QUEUE("bad-queue"),
    /** The virtual host name is not one RabbitMQ accepts. */
    BAD_VHOST("bad-vhost"),
    /** The spec declares no service. */
    NO_SERVICES("no-services"),
    /** A service name that is not lower-kebab-case. */
    BAD_SERVICE_NAME("bad-service-name"),
    /** A name longer than RabbitMQ, a file system or a class file takes, as written or once derived. */
    NAME_TOO_LONG("name-too-long"),
    /** Names that are the same once derived, or that hide each other in generated code. */
    NAME_COLLISION("name-collision"),
    /**
     * Two objects of one kind (queues, policies or bindings) whose names make one Kubernetes resource name, so that
     * the messaging-topology-operator's resources of the spec could not tell them apart.
     */
    KUBERNETES_NAME_COLLISION("kubernetes-name-collision"),
    /** A service with no routing keys. */
    NO_ROUTING_KEYS("no-routing-keys"),
    /** A service with more routing keys than is sane. */
    TOO_MANY_ROUTING_KEYS("too-many-routing-keys"),
    /** A routing key that RabbitMQ would not accept as a topic binding, or would not treat as meant. */
    BAD_ROUTING_KEY("bad-routing-key"),
    /** A service lists the same routing key twice. */
    DUPLICATE_ROUTING_KEY("duplicate-routing-key"),
    /** A routing key that an earlier key of the same service already matches entirely. */
    SHADOWED_ROUTING_KEY("shadowed-routing-key"),
    /** A routing key with wildcards and no {@code handler} name. */
    HANDLER_REQUIRED("handler-required"),
    /** A handler name that is not a Java identifier. */
    BAD_HANDLER("bad-handler"),
    /** A handler name that is a Java keyword or a name the generated code already uses. */
    RESERVED_HANDLER("reserved-handler"),
    /** Two routing keys of one service with the same handler name. */
    DUPLICATE_HANDLER("duplicate-handler"),
    /** A class name that is not a valid Java binary name. */
    BAD_CLASS_NAME("bad-class-name"),
    /** A {@code payload} or {@code nonRetryable} class that the project's class path does not hold. */
    UNKNOWN_CLASS("unknown-class"),
    /** A {@code nonRetryable} class that is not an exception: it does not extend {@link Throwable}. */
    NOT_THROWABLE("not-throwable");

    private final String id;

    ProblemCode(String id) {
        this.id = id;
    }

    /** Returns the stable, lower-kebab-case identifier, such as {@code unknown-key}. */
    public String id() {
        return id;
    }
}
