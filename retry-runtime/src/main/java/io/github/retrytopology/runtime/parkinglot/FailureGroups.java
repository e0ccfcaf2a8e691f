package io.github.retrytopology.runtime.parkinglot;

import java.time.Duration;
import java.util.List;

/**
 * A parking lot read by failure: its groups, largest first, and the first messages a filter took, if one was given.
 *
 * @param parked how many messages the parking lot held when the reading began
 * @param scanned how many of them were read: all of them unless the reading was capped, or messages left
 *     the parking lot while it ran
 * @param groups the groups of the messages read, largest first, then by the time their last message was parked
 * @param messages the first messages of those read that the reading's filter took, oldest first, twins once; none
 *     if it was given none
 * @param took how long the reading took, from the first request to the broker until every message read was parked
 *     again
 */
public record FailureGroups(long parked, long scanned, List<FailureGroup> groups, List<ParkedMessage> messages,
        Duration took) {

    public FailureGroups {
        groups = List.copyOf(groups);
        messages = List.copyOf(messages);
    }

    /** Whether every message parked when the reading began was read. */
    public boolean complete() {
        return scanned >= parked;
    }
}
