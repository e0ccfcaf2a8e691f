package io.github.retrytopology.runtime.consumer;

/**
 * The lane of a service's subscriptions: it subscribes, cancels, opens channels and asks the broker how its queue
 * is, and so may wait on a broker round trip. It alone writes a {@link Subscription}.
 */
final class ControlLane extends Lane {

    ControlLane(String service) {
        super("retry-" + service + "-control");
    }
}
