package io.github.retrytopology.model.read;

import static io.github.retrytopology.model.read.SpecKey.BACKOFF;
import static io.github.retrytopology.model.read.SpecKey.DEFAULTS;
import static io.github.retrytopology.model.read.SpecKey.DELAYS;
import static io.github.retrytopology.model.read.SpecKey.DELAY_BY;
import static io.github.retrytopology.model.read.SpecKey.EXCHANGE;
import static io.github.retrytopology.model.read.SpecKey.HANDLER;
import static io.github.retrytopology.model.read.SpecKey.INITIAL;
import static io.github.retrytopology.model.read.SpecKey.KEY;
import static io.github.retrytopology.model.read.SpecKey.MAX;
import static io.github.retrytopology.model.read.SpecKey.MAX_ATTEMPTS;
import static io.github.retrytopology.model.read.SpecKey.MULTIPLIER;
import static io.github.retrytopology.model.read.SpecKey.NON_RETRYABLE;
import static io.github.retrytopology.model.read.SpecKey.PACKAGE;
import static io.github.retrytopology.model.read.SpecKey.PAYLOAD;
import static io.github.retrytopology.model.read.SpecKey.PROTOCOL;
import static io.github.retrytopology.model.read.SpecKey.QUEUE;
import static io.github.retrytopology.model.read.SpecKey.QUEUE_SETTINGS;
import static io.github.retrytopology.model.read.SpecKey.QUEUE_TYPE;
import static io.github.retrytopology.model.read.SpecKey.ROUTING_KEYS;
import static io.github.retrytopology.model.read.SpecKey.SERVICES;
import static io.github.retrytopology.model.read.SpecKey.VERSION;
import static io.github.retrytopology.model.read.SpecKey.VHOST;

import java.util.List;
import java.util.Optional;

/**
 * The mappings of a spec whose keys are fixed, and the keys each takes, in the order the reference lists them.
 * (The mapping under {@code services} is the exception: its keys are the services' names.)
 */
public enum SpecMapping {
    /** The document. */
    ROOT("a top-level key", VERSION, PACKAGE, VHOST, EXCHANGE, QUEUE_SETTINGS, DEFAULTS, SERVICES),
    /** {@code defaults}. */
    DEFAULTS_MAPPING("a defaults key", MAX_ATTEMPTS, DELAYS, BACKOFF, DELAY_BY, PROTOCOL, QUEUE_TYPE, NON_RETRYABLE),
    /** One service. */
    SERVICE("a service key", QUEUE, ROUTING_KEYS, MAX_ATTEMPTS, DELAYS, BACKOFF, DELAY_BY, PROTOCOL, QUEUE_TYPE,
            NON_RETRYABLE),
    /** An entry of {@code routingKeys} written as a mapping. */
    ROUTE("a routing key's key", KEY, HANDLER, PAYLOAD),
    /** {@code backoff}. */
    BACKOFF_MAPPING("a backoff key", INITIAL, MULTIPLIER, MAX);

    private final String keyKind;
    private final List<SpecKey> keys;

    SpecMapping(String keyKind, SpecKey... keys) {
        this.keyKind = keyKind;
        this.keys = List.of(keys);
    }

    /** What a key of this mapping is, for messages: "a service key". */
    public String keyKind() {
        return keyKind;
    }

    /** The keys this mapping takes. */
    public List<SpecKey> keys() {
        return keys;
    }

    /** The key of this mapping written so, if it takes one. */
    public Optional<SpecKey> key(String yamlName) {
        return keys.stream().filter(key -> key.yamlName().equals(yamlName)).findFirst();
    }

    /** The names of its keys, as written. */
    public List<String> names() {
        return keys.stream().map(SpecKey::yamlName).toList();
    }
}
