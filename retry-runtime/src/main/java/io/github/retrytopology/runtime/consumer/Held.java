package io.github.retrytopology.runtime.consumer;

import java.util.Arrays;

/**
 * The delivery tags of one channel life not answered yet, in order, and the lowest of them: below it, one
 * acknowledgement with {@code multiple} set covers only deliveries that are being answered together (see
 * {@link Settlements}, which holds it). Tags of the channel's earlier lives, and deliveries the client dropped when
 * a connection was lost, are not outstanding on the channel, and not held.
 */
final class Held {

    /**
     * The tags in the order they arrived, which is the order of their numbers, from {@code head} on; a tag let go
     * is kept, negated, until the ones before it are gone too, so that the ring stays sorted by magnitude.
     */
    private long[] ring = new long[64];
    private int head;
    private int size;

    /** Holds a delivery as it arrives; deliveries arrive in the order of their tags. */
    synchronized void add(long tag) {
        if (size == ring.length) {
            // Full: the tags let go behind one held long are dropped, and the ring grows only if the tags still
            // held fill more than half of it, which the consumer's prefetch bounds.
            long[] next = new long[ring.length * 2];
            int kept = 0;
            for (int i = 0; i < size; i++) {
                if (at(i) > 0) {
                    next[kept++] = at(i);
                }
            }
            ring = kept > ring.length / 2 ? next : Arrays.copyOf(next, ring.length);
            head = 0;
            size = kept;
        }
        int index = size;
        while (index > 0 && Math.abs(at(index - 1)) > tag) {
            // Not expected, as the client dispatches a channel's deliveries in order; kept sorted all the same.
            set(index, at(index - 1));
            index--;
        }
        set(index, tag);
        size++;
    }

    /** Lets a delivery go: it is answered, or is being. */
    synchronized void release(long tag) {
        int index = find(tag);
        if (index < 0) {
            return;
        }
        set(index, -tag);
        while (size > 0 && ring[head] < 0) {
            head = (head + 1) % ring.length;
            size--;
        }
    }

    /** The lowest tag held; {@link Long#MAX_VALUE} if none is. */
    synchronized long lowest() {
        return size == 0 ? Long.MAX_VALUE : ring[head];
    }

    synchronized boolean isEmpty() {
        return size == 0;
    }

    private long at(int index) {
        return ring[(head + index) % ring.length];
    }

    private void set(int index, long tag) {
        ring[(head + index) % ring.length] = tag;
    }

    /** The index of a held tag, from the head; -1 if it is not held. */
    private int find(long tag) {
        if (size > 0 && ring[head] == tag) {
            return 0; // answers come mostly in order
        }
        int low = 0;
        int high = size - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            long value = Math.abs(at(middle));
            if (value < tag) {
                low = middle + 1;
            } else if (value > tag) {
                high = middle - 1;
            } else {
                return at(middle) > 0 ? middle : -1;
            }
        }
        return -1;
    }

}
