package io.github.retrytopology.operations.adopt;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.operations.adopt.AdoptionRecord.Listed;
import io.github.retrytopology.operations.adopt.Layout.QueueView;
import io.github.retrytopology.operations.adopt.Routes.DeadLetter;
import java.util.List;
import java.util.Optional;

/**
 * The retry structures found in a virtual host, and what belongs to none, before any of it is named as a spec
 * names it.
 *
 * @param services one per work queue, in the order of their queues' names
 * @param unmapped the queues that belong to no structure, or that cannot be told which, each with the reason
 * @param problems what the draft cannot say as the broker has it, each naming its object
 */
record Findings(List<ServiceFinding> services, List<Listed> unmapped, List<Listed> problems) {

    Findings {
        services = List.copyOf(services);
        unmapped = List.copyOf(unmapped);
        problems = List.copyOf(problems);
    }

    /** How a failed message gets into the service's wait queues. */
    enum Entry {
        /** The work queue dead-letters its rejected messages into its wait queue. */
        REJECTED,
        /** The consumer publishes a failed message into a wait queue, through its exchange, and acknowledges it. */
        REPUBLISHED,
        /** The consumer publishes a failed message back through a delayed-message exchange, with a delay. */
        DELAYED,
        /** Nothing retries: a rejected message, or one past the delivery limit, goes to a failed queue, if any. */
        NONE
    }

    /**
     * A work queue, which a service consumes, and the queues that retry and keep its failed messages.
     *
     * @param waits the queues a failed message waits in before it comes back, shortest TTL first, those without a
     *     TTL of their own last
     * @param failed the queues that keep messages past their last attempt
     * @param delayedExchange the delayed-message exchange it is bound to, if any
     * @param deadLetter where the work queue dead-letters, if it does
     */
    record ServiceFinding(QueueView work, Entry entry, List<WaitQueue> waits, List<FailedQueue> failed,
            Optional<String> delayedExchange, Optional<DeadLetter> deadLetter) {

        ServiceFinding {
            requireNonNull(work, "work");
            requireNonNull(entry, "entry");
            waits = List.copyOf(waits);
            failed = List.copyOf(failed);
            requireNonNull(delayedExchange, "delayedExchange");
            requireNonNull(deadLetter, "deadLetter");
        }
    }

    /**
     * A queue in which failed messages wait, then dead-letter back to the work queue.
     *
     * @param back how it dead-letters back
     * @param evidence why it is taken for one, when its structure alone does not say: a sentence, or empty
     */
    record WaitQueue(QueueView queue, DeadLetter back, Optional<String> evidence) {

        WaitQueue {
            requireNonNull(queue, "queue");
            requireNonNull(back, "back");
            requireNonNull(evidence, "evidence");
        }

        /** Whether the publisher sets each message's TTL, the queue having none of its own. */
        boolean perMessage() {
            return queue.messageTtl().isEmpty();
        }
    }

    /**
     * A queue that keeps messages past their last attempt.
     *
     * @param deadLettered whether the work queue dead-letters them into it; if not, the consumer publishes them
     * @param evidence why it is taken for one: a sentence
     */
    record FailedQueue(QueueView queue, boolean deadLettered, String evidence) {

        FailedQueue {
            requireNonNull(queue, "queue");
            requireNonNull(evidence, "evidence");
        }
    }
}
