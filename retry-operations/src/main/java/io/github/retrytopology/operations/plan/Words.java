package io.github.retrytopology.operations.plan;

/** Counted nouns in the plan's sentences: {@code 1 message}, {@code 2 messages}. */
final class Words {

    private Words() {
    }

    static String count(long count, String noun) {
        return count + " " + noun + (count == 1 ? "" : "s");
    }
}
