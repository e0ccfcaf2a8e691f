package io.github.retrytopology.operations.move;

/**
 * The copies published and not yet settled in the source, in the order they were published: each copy's publish
 * sequence number (consecutive, on the publishing channel), the delivery tag of its original (rising, on the consuming
 * channel), and what the broker said of the copy. Owned by the thread that moves.
 */
final class Unsettled {

    private static final byte AWAITING = 0;
    private static final byte CONFIRMED = 1;
    private static final byte REFUSED = 2;

    private long[] tags = new long[1024];
    private byte[] states = new byte[1024];
    private int head;
    private int size;
    private long firstSequence;
    private int awaiting;

    /** Adds a copy just published. */
    void add(long sequence, long tag) {
        if (size == 0) {
            firstSequence = sequence;
        } else if (sequence != firstSequence + size) {
            throw new IllegalStateException("publish " + sequence + " follows " + (firstSequence + size - 1)
                    + ": the publishing channel published something else");
        }
        if (size == tags.length) {
            grow();
        }
        int at = (head + size) % tags.length;
        tags[at] = tag;
        states[at] = AWAITING;
        size++;
        awaiting++;
    }

    /** Records the broker's confirm of a copy, or of every copy up to it; a confirm of a settled copy is ignored. */
    void confirm(long sequence, boolean multiple, boolean stored) {
        long last = Math.min(sequence - firstSequence, size - 1L);
        long first = multiple ? 0 : last;
        if (size == 0 || last < 0 || (!multiple && sequence - firstSequence != last)) {
            return;
        }
        for (long index = first; index <= last; index++) {
            int at = (int) ((head + index) % tags.length);
            if (states[at] == AWAITING) {
                states[at] = stored ? CONFIRMED : REFUSED;
                awaiting--;
            }
        }
    }

    /** Counts every copy still awaiting its confirm as refused: its channel closed, or the broker returned it. */
    void refuseAwaiting() {
        for (int index = 0; index < size; index++) {
            int at = (head + index) % tags.length;
            if (states[at] == AWAITING) {
                states[at] = REFUSED;
            }
        }
        awaiting = 0;
    }

    /** How many copies await their confirm. */
    int awaiting() {
        return awaiting;
    }

    /** How many copies are not settled yet. */
    int size() {
        return size;
    }

    /** How many copies from the oldest on are confirmed, at most {@code most}. */
    int confirmedRun(long most) {
        int run = 0;
        while (run < size && run < most && states[(head + run) % tags.length] == CONFIRMED) {
            run++;
        }
        return run;
    }

    /** The delivery tag of the original of the copy {@code index} places from the oldest. */
    long tag(int index) {
        return tags[(head + index) % tags.length];
    }

    /** Whether the copy {@code index} places from the oldest is confirmed. */
    boolean confirmed(int index) {
        return states[(head + index) % tags.length] == CONFIRMED;
    }

    /** Forgets the {@code count} oldest copies, once settled in the source. */
    void settle(int count) {
        for (int index = 0; index < count; index++) {
            if (states[(head + index) % tags.length] == AWAITING) {
                awaiting--;
            }
        }
        head = (head + count) % tags.length;
        size -= count;
        firstSequence += count;
    }

    private void grow() {
        long[] moreTags = new long[tags.length * 2];
        byte[] moreStates = new byte[tags.length * 2];
        for (int index = 0; index < size; index++) {
            moreTags[index] = tags[(head + index) % tags.length];
            moreStates[index] = states[(head + index) % tags.length];
        }
        tags = moreTags;
        states = moreStates;
        head = 0;
    }
}
