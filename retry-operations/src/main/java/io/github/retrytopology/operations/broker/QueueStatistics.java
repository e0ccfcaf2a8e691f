package io.github.retrytopology.operations.broker;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.rabbitmq.http.client.domain.MessageStats;
import com.rabbitmq.http.client.domain.RateDetails;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A queue's statistics, as {@code GET /api/queues/VHOST} lists them, in the columns asked for. Hop's
 * {@code QueueInfo} has neither {@code messages_dlx} nor {@code online}, and cannot tell a count the broker left out
 * (a queue its statistics have not reached yet) from one it gave. Every component but the name may be null.
 *
 * @param state such as {@code running}, or {@code down} when its node is
 * @param members the nodes of a quorum queue's members
 * @param online those of its members that are up
 * @param messages the messages it holds, dead-lettered ones waiting to be forwarded included
 * @param deadLettered the messages a quorum queue has dead-lettered and not yet forwarded
 * @param messageStats its rates, in Hop's type
 */
public record QueueStatistics(String name, @Nullable String state, List<String> members, List<String> online,
        @Nullable Long messages, @JsonProperty("messages_ready") @Nullable Long ready,
        @JsonProperty("messages_unacknowledged") @Nullable Long unacknowledged, @Nullable Long consumers,
        @JsonProperty("messages_dlx") @Nullable Long deadLettered,
        @JsonProperty("message_stats") @Nullable MessageStats messageStats) {

    public QueueStatistics {
        members = members == null ? List.of() : List.copyOf(members);
        online = online == null ? List.of() : List.copyOf(online);
    }

    /** The columns of {@link ManagementApi#queueTotals(String)}: those the queues' totals have that plan weighs. */
    static final List<String> TOTALS = List.of("name", "state", "members", "online", "messages", "messages_ready",
            "messages_unacknowledged");

    public OptionalLong messagesCount() {
        return count(messages);
    }

    public OptionalLong readyCount() {
        return count(ready);
    }

    public OptionalLong unacknowledgedCount() {
        return count(unacknowledged);
    }

    public OptionalLong consumersCount() {
        return count(consumers);
    }

    public OptionalLong deadLetteredCount() {
        return count(deadLettered);
    }

    public Optional<String> stateIfKnown() {
        return Optional.ofNullable(state);
    }

    /** Messages a second published to it, delivered from it and acknowledged; 0 where the broker gives none. */
    public double publishRate() {
        return rate(MessageStats::getBasicPublishDetails);
    }

    public double deliverRate() {
        return rate(MessageStats::getBasicGetDetails);
    }

    public double ackRate() {
        return rate(MessageStats::getAckDetails);
    }

    private double rate(Function<MessageStats, RateDetails> details) {
        return Optional.ofNullable(messageStats).map(details).map(RateDetails::getRate).orElse(0.0);
    }

    private static OptionalLong count(@Nullable Long value) {
        return value == null ? OptionalLong.empty() : OptionalLong.of(value);
    }
}
