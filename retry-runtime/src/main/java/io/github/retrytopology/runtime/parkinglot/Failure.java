package io.github.retrytopology.runtime.parkinglot;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.decision.ParkReason;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a parked message failed of, as its failure group: the class of its last failure, that failure's message with
 * numbers and ids masked, and why it was parked. Messages that failed the same way, for different orders or
 * hosts, share one; an on-call engineer replays or purges them as one.
 *
 * @param exception the class of the last failure, if one was recorded
 * @param message the last failure's message, numbers and ids masked as {@value #MASK}, if one was recorded
 * @param reason why it was parked: a {@link ParkReason} id, or the broker's own word where it parked a message for
 *     a reason this project has no name for; absent if neither recorded one
 */
public record Failure(Optional<String> exception, Optional<String> message, Optional<String> reason) {

    /** What stands for a number or an id in a masked message. */
    public static final String MASK = "#";

    /**
     * Ids first (UUIDs, then long hexadecimal or token-like runs that hold a digit), then any number, so that an id
     * is one mask and not several. A digit run inside a word is masked too: {@code order-12345}, {@code node7}.
     */
    private static final Pattern IDS = Pattern.compile(
            "\\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\b"
                    + "|\\b(?=[0-9a-fA-F]*[0-9])[0-9a-fA-F]{8,}\\b"
                    + "|\\b(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{20,}\\b");
    private static final Pattern NUMBERS = Pattern.compile("\\d+(?:[.,]\\d+)*");

    public Failure {
        requireNonNull(exception, "exception");
        requireNonNull(message, "message");
        requireNonNull(reason, "reason");
    }

    /** The failure group of a parked message. */
    public static Failure of(ParkedMessage message) {
        return new Failure(message.exception(), message.exceptionMessage().map(Failure::mask),
                message.reason().map(ParkReason::id).or(message::brokerReason));
    }

    /** A failure's message with every number and id in it replaced by {@value #MASK}. */
    public static String mask(String message) {
        String ids = IDS.matcher(message).replaceAll(MASK);
        return NUMBERS.matcher(ids).replaceAll(MASK);
    }

    /**
     * A short name of this group that stays the same from one reading of the parking lot to the next, and
     * across processes: the first 16 hexadecimal digits of a SHA-256 of its three parts.
     */
    public String key() {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        for (Optional<String> part : List.of(exception, message, reason)) {
            // A length before each part keeps ("ab", "c") apart from ("a", "bc"), and absent apart from empty.
            String text = part.map(value -> value.length() + ":" + value).orElse("-");
            digest.update(text.getBytes(StandardCharsets.UTF_8));
        }
        return HexFormat.of().formatHex(digest.digest(), 0, 8);
    }
}
