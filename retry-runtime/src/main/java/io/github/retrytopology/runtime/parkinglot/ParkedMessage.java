package io.github.retrytopology.runtime.parkinglot;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.model.headers.DeathReason;
import io.github.retrytopology.model.headers.Header;
import io.github.retrytopology.runtime.headers.MessageProperties;
import io.github.retrytopology.runtime.headers.RetryHeaders;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A message in a parking lot, in no protocol's terms, its retry headers decoded. A message the broker parked itself
 * (dead-lettered from the service's queue past its delivery limit, or when its own expiration passed there) has no
 * park headers of ours; its reason, time and routing key come from {@code x-death}, and nothing more is claimed
 * about it.
 *
 * <p>A lost confirm or acknowledgement can leave two copies of one message parked at the same attempt: twins.
 * {@link ParkingLot#list} shows them as one, with {@link #copies()}, and a replay sends one.
 *
 * @param properties the message's properties, headers included, as the protocol's adapter read them
 * @param body the message's body
 * @param copies how many copies of it, twins, are parked
 */
public record ParkedMessage(MessageProperties properties, byte[] body, int copies) {

    /** What {@code x-death} calls the reasons the broker parks a message for, and what this project calls them. */
    private static final Map<DeathReason, ParkReason> BROKER_REASONS = Map.of(DeathReason.DELIVERY_LIMIT,
            ParkReason.DELIVERY_LIMIT, DeathReason.EXPIRED, ParkReason.EXPIRED, DeathReason.REJECTED,
            ParkReason.UNPUBLISHABLE);

    public ParkedMessage {
        requireNonNull(properties, "properties");
        requireNonNull(body, "body");
        if (copies < 1) {
            throw new IllegalArgumentException("a parked message has at least one copy, got " + copies);
        }
    }

    ParkedMessage withCopies(int copies) {
        return new ParkedMessage(properties, body, copies);
    }

    /** Equal when the properties, the body's bytes and the copies are. */
    @Override
    public boolean equals(@Nullable Object other) {
        return other instanceof ParkedMessage that && copies == that.copies && properties.equals(that.properties)
                && Arrays.equals(body, that.body);
    }

    @Override
    public int hashCode() {
        return Objects.hash(properties, Arrays.hashCode(body), copies);
    }

    @Override
    public String toString() {
        return "ParkedMessage[properties=" + properties + ", body=" + body.length + " bytes, copies=" + copies + "]";
    }

    /** The message's retry headers. */
    public RetryHeaders headers() {
        return RetryHeaders.of(properties.headers());
    }

    /**
     * Who the message is, to choose it by: its message id (the publisher's, else the one this project gave it at
     * its first failure), else, for a message parked with neither, {@code sha256:} and a digest of its routing key
     * and body. Twins share it.
     */
    public String id() {
        return Optional.ofNullable(properties.messageId()).or(() -> headers().messageId()).orElseGet(() -> {
            MessageDigest digest = Sha256.digest();
            digest.update(routingKey().orElse("").getBytes(StandardCharsets.UTF_8));
            digest.update((byte) 0);
            return "sha256:" + HexFormat.of().formatHex(digest.digest(body), 0, 12);
        });
    }

    /** Who replayed it last, if a replay named someone. */
    public Optional<String> replayedBy() {
        return headers().replayedBy();
    }

    /** When it was replayed last, if it was. */
    public Optional<Instant> replayedAt() {
        return headers().replayedAt();
    }

    /**
     * Who the message and its attempt are, if it can be told: its message id (the publisher's, else the one this
     * project gave it at its first failure) and its failed attempts. Copies with the same identity are twins.
     */
    public Optional<String> twinKey() {
        return Optional.ofNullable(properties.messageId()).or(() -> headers().messageId())
                .map(id -> id + "#" + attempts());
    }

    /** Why it was parked: the reason this project recorded, else the broker's, from {@code x-death}. */
    public Optional<ParkReason> reason() {
        Optional<ParkReason> reason = headers().parkReason();
        if (reason.isPresent()) {
            return reason;
        }
        return brokerPark().flatMap(death -> DeathReason.fromId(death.reason())).map(BROKER_REASONS::get);
    }

    /** The reason the broker recorded in {@code x-death} when it parked the message itself, as it wrote it. */
    public Optional<String> brokerReason() {
        return headers().parkReason().isPresent() ? Optional.empty() : brokerPark().map(RetryHeaders.Death::reason);
    }

    /** Why it was parked, in a sentence. */
    public String detail() {
        return headers().parkDetail().orElseGet(() -> brokerPark().map(ParkedMessage::describe)
                .orElse("no reason recorded: neither this project nor the broker parked it"));
    }

    /** When it was parked, if known. */
    public Optional<Instant> parkedAt() {
        return headers().parkedAt().or(() -> brokerPark().flatMap(RetryHeaders.Death::time));
    }

    /** The routing key it was first published with, if known. */
    public Optional<String> routingKey() {
        return headers().originalRoutingKey().or(() -> headers().deaths().stream()
                .reduce((newer, older) -> older)
                .flatMap(first -> first.routingKeys().stream().findFirst()));
    }

    /** Failed deliveries before it was parked. */
    public int attempts() {
        return headers().attempts();
    }

    /** The class of its last failure, if one was recorded. */
    public Optional<String> exception() {
        return headers().exception();
    }

    /** The message of its last failure, if one was recorded. */
    public Optional<String> exceptionMessage() {
        return headers().exceptionMessage();
    }

    /** One line per failure, oldest first. */
    public List<String> failures() {
        return headers().failures();
    }

    /**
     * The broker's record of parking it: the latest {@code x-death} entry, when no park of ours is recorded. The
     * parking lot receives dead letters only from the service's queue.
     */
    private Optional<RetryHeaders.Death> brokerPark() {
        if (headers().parkReason().isPresent()) {
            return Optional.empty();
        }
        return headers().deaths().stream().findFirst();
    }

    private static String describe(RetryHeaders.Death death) {
        String why = DeathReason.fromId(death.reason()).map(reason -> switch (reason) {
            case DELIVERY_LIMIT -> "more deliveries than the queue's delivery limit ended without an acknowledgement";
            case EXPIRED -> death.originalExpiration().map(ms -> "its own expiration of " + ms + " ms")
                    .orElse("its time to live") + " passed before a consumer took it";
            case REJECTED -> "a consumer rejected it without requeueing it: one that could not republish it at all";
            case MAXLEN -> "the queue was over its length limit";
        }).orElse("the broker gave no reason this project knows");
        return "the broker dead-lettered it from " + death.queue() + death.time().map(at -> " at " + at).orElse("")
                + " (" + Header.X_DEATH + ": " + death.reason() + (death.count() > 1 ? ", " + death.count() + " times" : "") + "): "
                + why;
    }
}
