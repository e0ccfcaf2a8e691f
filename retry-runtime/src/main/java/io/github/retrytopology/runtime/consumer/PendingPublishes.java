package io.github.retrytopology.runtime.consumer;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The republishes of one channel that the broker has not confirmed yet, keyed by publish sequence number.
 * Each settles exactly once, as confirmed or as failed, whichever comes first of the broker's ack, its nack,
 * a return of the message, the deadline, or the channel's end; later news of it is ignored.
 *
 * @param <T> what the caller needs to finish the delivery once its republish settles
 */
final class PendingPublishes<T> {

    private final NavigableMap<Long, Entry<T>> bySequence = new ConcurrentSkipListMap<>();
    private final Map<String, Entry<T>> byPublishId = new ConcurrentHashMap<>();

    private static final class Entry<T> {
        final long sequence;
        final String publishId;
        final Instant deadline;
        final T value;
        volatile String returned;

        Entry(long sequence, String publishId, Instant deadline, T value) {
            this.sequence = sequence;
            this.publishId = publishId;
            this.deadline = deadline;
            this.value = value;
        }
    }

    /** How a republish settled: {@code failure} is null if the broker confirmed it. */
    record Settled<T>(T value, String failure) {
        boolean confirmed() {
            return failure == null;
        }
    }

    /** Registers a republish before it is sent, so that no confirm can arrive before it is known. */
    void add(long sequence, String publishId, Instant deadline, T value) {
        Entry<T> entry = new Entry<>(sequence, publishId, deadline, value);
        byPublishId.put(publishId, entry);
        bySequence.put(sequence, entry);
    }

    /** Forgets a republish that was never sent. */
    void cancel(long sequence) {
        take(sequence);
    }

    /** Marks a republish as returned by the broker; its confirm, which follows, then settles it as failed. */
    void returned(String publishId, String reason) {
        Entry<T> entry = byPublishId.get(publishId);
        if (entry != null) {
            entry.returned = reason;
        }
    }

    /** Settles the confirmed republishes: this one, and every earlier one if {@code multiple}. */
    List<Settled<T>> ack(long sequence, boolean multiple) {
        List<Settled<T>> settled = new ArrayList<>();
        for (Entry<T> entry : take(sequence, multiple)) {
            String returned = entry.returned;
            settled.add(new Settled<>(entry.value, returned == null ? null : "the broker returned it: " + returned));
        }
        return settled;
    }

    /** Settles the republishes the broker refused. */
    List<Settled<T>> nack(long sequence, boolean multiple) {
        return fail(take(sequence, multiple), "the broker refused it (nack)");
    }

    /** Settles the republishes whose deadline has passed. */
    List<Settled<T>> expire(Instant now) {
        List<Entry<T>> late = new ArrayList<>();
        for (Entry<T> entry : bySequence.values()) {
            if (!entry.deadline.isAfter(now) && take(entry.sequence) != null) {
                late.add(entry);
            }
        }
        return fail(late, "the broker did not confirm it in time");
    }

    /** Settles every republish as failed, for a channel that closed. */
    List<Settled<T>> drain(String reason) {
        List<Entry<T>> all = new ArrayList<>();
        for (Long sequence : bySequence.keySet()) {
            Entry<T> entry = take(sequence);
            if (entry != null) {
                all.add(entry);
            }
        }
        return fail(all, reason);
    }

    int size() {
        return bySequence.size();
    }

    private List<Entry<T>> take(long sequence, boolean multiple) {
        List<Entry<T>> taken = new ArrayList<>();
        if (multiple) {
            for (Long earlier : bySequence.headMap(sequence, true).keySet()) {
                Entry<T> entry = take(earlier);
                if (entry != null) {
                    taken.add(entry);
                }
            }
        } else {
            Entry<T> entry = take(sequence);
            if (entry != null) {
                taken.add(entry);
            }
        }
        return taken;
    }

    private Entry<T> take(long sequence) {
        Entry<T> entry = bySequence.remove(sequence);
        if (entry != null) {
            byPublishId.remove(entry.publishId);
        }
        return entry;
    }

    private static <T> List<Settled<T>> fail(List<Entry<T>> entries, String reason) {
        return entries.stream().map(entry -> new Settled<>(entry.value, reason)).toList();
    }
}
