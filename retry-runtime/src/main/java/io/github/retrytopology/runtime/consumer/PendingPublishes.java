package io.github.retrytopology.runtime.consumer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The sends of one channel's life that the broker has not confirmed yet, by publish sequence number. The
 * broker's confirms, refusals and returns take them out; what they mean for their republish is the caller's
 * to decide. A channel that closes takes its sends with it: the broker requeues their originals.
 */
final class PendingPublishes {

    private final ConcurrentNavigableMap<Long, Send> bySequence = new ConcurrentSkipListMap<>();

    /** One publish of a republish. */
    static final class Send {
        final Republish republish;
        final long sequence;
        final String publishId;
        volatile long deadline;
        volatile String returned;

        Send(Republish republish, long sequence, String publishId, long deadline) {
            this.republish = republish;
            this.sequence = sequence;
            this.publishId = publishId;
            this.deadline = deadline;
        }

        /** Why the broker did not take it, if it returned it; its confirm follows the return. */
        String returned() {
            return returned;
        }
    }

    /** Registers a send before it goes out, so that no confirm can arrive before it is known. */
    void add(Send send) {
        bySequence.put(send.sequence, send);
    }

    /** Takes out a send that never went out, or whose channel closed. */
    Send remove(long sequence) {
        return bySequence.remove(sequence);
    }

    /**
     * Marks a send as returned by the broker. Returns are rare (a queue is missing), and come just before the
     * send's confirm, among the sends still pending: they are looked for rather than indexed.
     */
    void returned(String publishId, String reason) {
        for (Send send : bySequence.values()) {
            if (send.publishId.equals(publishId)) {
                send.returned = reason;
                return;
            }
        }
    }

    /** Takes out the sends a confirm or refusal covers: this one, and every earlier one if {@code multiple}. */
    List<Send> take(long sequence, boolean multiple) {
        if (!multiple) {
            Send send = remove(sequence);
            return send == null ? List.of() : List.of(send);
        }
        List<Send> taken = new ArrayList<>();
        for (Long earlier : bySequence.headMap(sequence, true).keySet()) {
            Send send = remove(earlier);
            if (send != null) {
                taken.add(send);
            }
        }
        return taken;
    }

    /** The sends whose deadline has passed, left in place: a late confirm still counts. */
    List<Send> overdue(long now) {
        List<Send> late = new ArrayList<>();
        for (Send send : bySequence.values()) {
            if (now - send.deadline >= 0) {
                late.add(send);
            }
        }
        return late;
    }

    /** Takes out every send. */
    List<Send> clear() {
        List<Send> all = new ArrayList<>();
        for (Long sequence : bySequence.keySet()) {
            Send send = remove(sequence);
            if (send != null) {
                all.add(send);
            }
        }
        return all;
    }

    int size() {
        return bySequence.size();
    }
}
