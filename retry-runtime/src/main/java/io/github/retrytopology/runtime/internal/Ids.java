package io.github.retrytopology.runtime.internal;

import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Identifiers for publishes and messages, unique without a random number each: a random prefix for this JVM,
 * then a counter. A {@link java.util.UUID#randomUUID()} per republish cost more than the rest of its headers.
 */
final class Ids {

    private static final String PREFIX = Long.toString(new SecureRandom().nextLong() & Long.MAX_VALUE, 36) + "-";
    private static final AtomicLong NEXT = new AtomicLong();

    private Ids() {
    }

    /** A new identifier, such as {@code 1y2p0ij32e8e7-4f}. */
    static String next() {
        return PREFIX + Long.toString(NEXT.incrementAndGet(), 36);
    }
}
