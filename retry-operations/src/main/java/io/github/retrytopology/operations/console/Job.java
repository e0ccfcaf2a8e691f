package io.github.retrytopology.operations.console;

import java.time.Instant;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * One action of the console, a replay or a purge, as its page follows it. Its job thread writes it; the pages read
 * it.
 */
final class Job {

    /** What a job does. */
    enum Kind {
        REPLAY, PURGE;

        String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final String id;
    private final String requestId;
    private final String fingerprint;
    private final Kind kind;
    private final String service;
    private final String operator;
    private final @Nullable Long expected;
    private final @Nullable Double rate;
    private final Instant startedAt;
    private int scanned;
    private int matched;
    private int replayed;
    private int twinsDropped;
    private @Nullable Long purged;
    private @Nullable Instant finishedAt;
    private @Nullable String error;

    Job(String id, String requestId, String fingerprint, Kind kind, String service, String operator, @Nullable Long expected,
            @Nullable Double rate, Instant startedAt) {
        this.id = id;
        this.requestId = requestId;
        this.fingerprint = fingerprint;
        this.kind = kind;
        this.service = service;
        this.operator = operator;
        this.expected = expected;
        this.rate = rate;
        this.startedAt = startedAt;
    }

    String id() {
        return id;
    }

    String requestId() {
        return requestId;
    }

    String fingerprint() {
        return fingerprint;
    }

    Kind kind() {
        return kind;
    }

    String service() {
        return service;
    }

    synchronized void progress(int scanned, int matched, int replayed) {
        this.scanned = scanned;
        this.matched = matched;
        this.replayed = replayed;
    }

    synchronized void twinsDropped(int twinsDropped) {
        this.twinsDropped = twinsDropped;
    }

    synchronized void purged(long purged) {
        this.purged = purged;
    }

    synchronized void finish(Instant at, @Nullable String error) {
        this.finishedAt = at;
        this.error = error;
    }

    synchronized boolean finished() {
        return finishedAt != null;
    }

    /** The job as its page reads it. */
    synchronized View view() {
        String state = finishedAt == null ? "running" : error == null ? "done" : "failed";
        return new View(id, kind.id(), service, operator, state, expected, scanned, matched, replayed, twinsDropped,
                purged, rate, startedAt.toString(), finishedAt == null ? null : finishedAt.toString(), error);
    }

    /**
     * @param operator who started it: the console's {@code --as} name, or the user its proxy named
     * @param expected how many messages it should replay, as its page counted them; null if not known
     * @param purged how many messages a purge deleted; null until it has
     * @param rate the most messages a second a replay sends
     */
    record View(String id, String kind, String service, String operator, String state, @Nullable Long expected,
            int scanned, int matched, int replayed, int twinsDropped, @Nullable Long purged, @Nullable Double rate,
            String startedAt, @Nullable String finishedAt, @Nullable String error) {
    }
}
