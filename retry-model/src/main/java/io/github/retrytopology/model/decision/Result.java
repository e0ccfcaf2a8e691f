package io.github.retrytopology.model.decision;

import static java.util.Objects.requireNonNull;

import org.jspecify.annotations.Nullable;

/**
 * What came of handing one delivery to its service: the input of a {@link Decision}. The runtime tells the model
 * what happened; the model, and nothing else, decides what follows.
 */
public sealed interface Result {

    /** The handler returned. */
    static Result returned() {
        return Returned.INSTANCE;
    }

    /** The handler threw: the spec's {@code nonRetryable} list and the attempt decide. */
    static Result threw(Throwable failure) {
        return new Threw(failure);
    }

    /** The handler asked for a retry, whatever its failure's class, still within {@code maxAttempts}. */
    static Result askedToRetry(Throwable failure) {
        return new AskedToRetry(failure);
    }

    /** The handler asked for the message to be parked, for a person to look at. */
    static Result askedToPark(Throwable failure) {
        return new AskedToPark(failure);
    }

    /** The body could not be decoded into the payload type of the route that takes it. */
    static Result undecodable(String payloadType, Throwable failure) {
        return new Undecodable(payloadType, failure);
    }

    /** No route of the service takes the message's routing key. */
    static Result noHandler(String routingKey) {
        return new NoHandler(routingKey);
    }

    /** What the handler threw; null if it returned, or none ran. */
    @Nullable Throwable failure();

    /** The handler returned. */
    record Returned() implements Result {
        private static final Returned INSTANCE = new Returned();

        @Override
        public @Nullable Throwable failure() {
            return null;
        }
    }

    /** The handler threw {@code failure}. */
    record Threw(Throwable failure) implements Result {
        public Threw {
            requireNonNull(failure, "failure");
        }
    }

    /** The handler asked for a retry, with {@code failure} as the reason. */
    record AskedToRetry(Throwable failure) implements Result {
        public AskedToRetry {
            requireNonNull(failure, "failure");
        }
    }

    /** The handler asked for the message to be parked, with {@code failure} as the reason. */
    record AskedToPark(Throwable failure) implements Result {
        public AskedToPark {
            requireNonNull(failure, "failure");
        }
    }

    /** The body could not be decoded into {@code payloadType}; {@code failure} says why. */
    record Undecodable(String payloadType, Throwable failure) implements Result {
        public Undecodable {
            requireNonNull(payloadType, "payloadType");
            requireNonNull(failure, "failure");
        }
    }

    /** No route takes {@code routingKey}. */
    record NoHandler(String routingKey) implements Result {
        public NoHandler {
            requireNonNull(routingKey, "routingKey");
        }

        @Override
        public @Nullable Throwable failure() {
            return null;
        }
    }
}
