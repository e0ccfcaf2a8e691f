package io.github.retrytopology.runtime.consumer;

import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listeners and observers of one service's consumers. Each hears every event in the order it was added, on
 * the thread the event happens on; what one throws is logged and ignored, and the next still hears.
 */
final class Listeners {

    private static final Logger log = LoggerFactory.getLogger(RetryingConsumer.class);

    private final List<RetryListener> listeners;
    private final DeliveryObserver observer;

    Listeners(List<RetryListener> listeners, List<DeliveryObserver> observers) {
        this.listeners = List.copyOf(listeners);
        this.observer = DeliveryObserver.all(observers);
    }

    /** Tells each listener. */
    void tell(Consumer<RetryListener> event) {
        for (RetryListener listener : listeners) {
            try {
                event.accept(listener);
            } catch (RuntimeException e) {
                log.warn("A retry listener failed; ignored", e);
            }
        }
    }

    /** Starts observing a delivery's handling. */
    DeliveryObserver.Observation observe(DeliveryContext context) {
        try {
            return observer.handling(context);
        } catch (RuntimeException e) {
            log.warn("A delivery observer failed; ignored", e);
            return DeliveryObserver.NONE.handling(context);
        }
    }

    /** Tells an observation the outcome of its delivery. */
    void finish(DeliveryObserver.Observation observation, DeliveryObserver.Outcome outcome, @Nullable Throwable failure) {
        try {
            observation.finished(outcome, failure);
        } catch (RuntimeException e) {
            log.warn("A delivery observer failed; ignored", e);
        }
    }
}
