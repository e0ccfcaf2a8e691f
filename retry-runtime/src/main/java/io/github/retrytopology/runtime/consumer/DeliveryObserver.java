package io.github.retrytopology.runtime.consumer;

import io.github.retrytopology.model.decision.Decision;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Watches each delivery as it is handled, on the thread that handles it: for spans a handler's own work belongs
 * to, and for timings. {@link #handling} is called just before the handler runs; the observation it returns hears
 * the outcome as soon as it is known, on the same thread, before the message is acknowledged or republished.
 * {@code MicrometerRetryMetrics} and {@code OpenTelemetryTracing} are two; what an observer throws is logged and
 * ignored, and it should return quickly.
 */
public interface DeliveryObserver {

    /** An observer that observes nothing. */
    DeliveryObserver NONE = context -> (outcome, failure) -> { };

    /** A delivery is about to be handled. */
    Observation handling(DeliveryContext context);

    /** One delivery being handled. */
    @FunctionalInterface
    interface Observation {

        /**
         * The handler returned or threw, and this is what follows.
         *
         * @param outcome what happens to the message
         * @param failure what the handler threw; null if it returned
         */
        void finished(Outcome outcome, @Nullable Throwable failure);
    }

    /**
     * What happens to a delivery once handled: acknowledged, retried or parked as {@code decision} says, or
     * requeued as it was because the consumer is stopping.
     *
     * @param decision the retry or park, or the acknowledgement of a success; null for a requeue
     */
    record Outcome(Kind kind, @Nullable Decision decision) {

        /** The handler returned: the message is acknowledged. */
        public static final Outcome SUCCESS = new Outcome(Kind.SUCCESS, Decision.ACKNOWLEDGE);
        /** The handler was interrupted by a stopping consumer: the message goes back as it was. */
        public static final Outcome REQUEUED = new Outcome(Kind.REQUEUED, null);

        /** What the model's decision makes of the message. */
        static Outcome of(Decision decision) {
            if (decision instanceof Decision.Acknowledge) {
                return SUCCESS;
            }
            return new Outcome(decision instanceof Decision.Park ? Kind.PARK : Kind.RETRY, decision);
        }

        /** The outcome's name, as metrics and spans record it: {@code success}, {@code retry}, ... */
        public String id() {
            return kind.id;
        }
    }

    /** The kinds of outcome. */
    enum Kind {
        SUCCESS("success"), RETRY("retry"), PARK("park"), REQUEUED("requeued");

        private final String id;

        Kind(String id) {
            this.id = id;
        }
    }

    /** An observer that tells each of these, in order. */
    static DeliveryObserver all(List<DeliveryObserver> observers) {
        List<DeliveryObserver> each = List.copyOf(observers);
        if (each.isEmpty()) {
            return NONE;
        }
        if (each.size() == 1) {
            return each.get(0);
        }
        return context -> {
            List<Observation> observations = each.stream().map(observer -> observer.handling(context)).toList();
            return (outcome, failure) -> observations.forEach(observation -> observation.finished(outcome, failure));
        };
    }
}
