package io.github.retrytopology.runtime.consumer;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The sends of one channel's life that the broker has not confirmed yet, by publish sequence number. The
 * broker's confirms, refusals and returns take them out; what they mean for their republish is the caller's
 * to decide. A channel that closes takes its sends with it: the broker requeues their originals.
 */
final class PendingPublishes {

    /** The sends by sequence number, in the order they went out, which is the order of their numbers. */
    private final LinkedHashMap<Long, Send> bySequence = new LinkedHashMap<>();

    /** One publish of a republish. */
    static final class Send {
        final Republish republish;
        final long sequence;
        volatile long deadline;
        volatile @Nullable String returned;

        Send(Republish republish, long sequence, long deadline) {
            this.republish = republish;
            this.sequence = sequence;
            this.deadline = deadline;
        }

        /** Why the broker did not take it, if it returned it; its confirm follows the return. */
        @Nullable String returned() {
            return returned;
        }
    }

    /** Registers a send before it goes out, so that no confirm can arrive before it is known. */
    synchronized void add(Send send) {
        bySequence.put(send.sequence, send);
    }

    /** Takes out a send that never went out, or whose channel closed. */
    synchronized @Nullable Send remove(long sequence) {
        return bySequence.remove(sequence);
    }

    /** Marks a send as returned by the broker; its confirm follows. */
    synchronized void returned(long sequence, String reason) {
        Send send = bySequence.get(sequence);
        if (send != null) {
            send.returned = reason;
        }
    }

    /** Takes out the sends a confirm or refusal covers: this one, and every earlier one if {@code multiple}. */
    synchronized List<Send> take(long sequence, boolean multiple) {
        if (!multiple) {
            Send send = bySequence.remove(sequence);
            return send == null ? List.of() : List.of(send);
        }
        List<Send> taken = new ArrayList<>();
        Iterator<Send> sends = bySequence.values().iterator();
        while (sends.hasNext()) {
            Send send = sends.next();
            if (send.sequence > sequence) {
                break;
            }
            taken.add(send);
            sends.remove();
        }
        return taken;
    }

    /** The sends whose deadline has passed, left in place: a late confirm still counts. */
    synchronized List<Send> overdue(long now) {
        List<Send> late = new ArrayList<>();
        for (Send send : bySequence.values()) {
            if (now - send.deadline >= 0) {
                late.add(send);
            }
        }
        return late;
    }

    /** Takes out every send. */
    synchronized List<Send> clear() {
        List<Send> all = new ArrayList<>(bySequence.values());
        bySequence.clear();
        return all;
    }

    synchronized int size() {
        return bySequence.size();
    }
}
