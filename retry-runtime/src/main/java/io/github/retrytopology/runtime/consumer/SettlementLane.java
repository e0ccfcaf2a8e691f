package io.github.retrytopology.runtime.consumer;

/**
 * The lane of a service's settlements: it acknowledges deliveries once their republish is confirmed, several in
 * one frame where it can, sends again what the broker refused or did not confirm in time, and tells listeners.
 * It never waits on a broker round trip, nor on a connection the broker blocks.
 */
final class SettlementLane extends Lane {

    SettlementLane(String service) {
        super("retry-" + service + "-settlement");
    }
}
