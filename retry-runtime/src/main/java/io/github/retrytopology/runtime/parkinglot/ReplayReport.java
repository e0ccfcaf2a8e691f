package io.github.retrytopology.runtime.parkinglot;

import java.util.List;

/**
 * What a replay did.
 *
 * @param scanned parked messages looked at
 * @param matched how many of them the filter took, up to the limit
 * @param replayed how many went back to the service's queue: none in a dry run
 * @param twinsDropped copies of messages replayed in this run (or to be, in a dry run), parked at the same
 *     attempt, which were dropped instead of sent twice: kept in a dry run
 * @param dryRun whether this was a dry run
 * @param preview the messages a dry run would replay; empty otherwise
 */
public record ReplayReport(int scanned, int matched, int replayed, int twinsDropped, boolean dryRun,
        List<ParkedMessage> preview) {

    public ReplayReport {
        preview = List.copyOf(preview);
    }
}
