package io.github.retrytopology.operations.adopt;

import io.github.retrytopology.model.decision.Durations;
import io.github.retrytopology.model.topology.QueueArguments;
import io.github.retrytopology.operations.adopt.AdoptionRecord.Listed;
import io.github.retrytopology.operations.adopt.Definitions.Binding;
import io.github.retrytopology.operations.adopt.Definitions.Exchange;
import io.github.retrytopology.operations.adopt.Findings.Entry;
import io.github.retrytopology.operations.adopt.Findings.FailedQueue;
import io.github.retrytopology.operations.adopt.Findings.ServiceFinding;
import io.github.retrytopology.operations.adopt.Findings.WaitQueue;
import io.github.retrytopology.operations.adopt.Layout.QueueView;
import io.github.retrytopology.operations.adopt.Routes.DeadLetter;
import io.github.retrytopology.operations.adopt.Routes.Reach;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Finds the retry structures of a virtual host from how its messages travel: which queues dead-letter where,
 * through which exchanges and bindings, after a TTL or not.
 *
 * <ul>
 *   <li>A queue with a TTL that dead-letters to exactly one other queue is a wait queue of that queue, which is a
 *       work queue. So is a queue bound to a delayed-message exchange.
 *   <li>A work queue that dead-letters to one of its wait queues has its failed messages enter them by
 *       rejection; one that dead-letters to a queue that goes nowhere has that queue as its failed queue.
 *   <li>A queue without a TTL that dead-letters to exactly one queue is either a wait queue whose publisher sets
 *       each message's TTL, or a work queue whose failed queue that is: the broker cannot tell. A delivery limit
 *       on it says work queue; the broker's count of consumers says which of the two is consumed; and a name may
 *       support one reading (such as {@code wait-queue}, or {@code orders.failed}), never against the others.
 *       Without any of these, both are listed, undecided.
 *   <li>A queue that nothing dead-letters into, and that neither dead-letters nor expires, bound with routing keys
 *       that a work queue's bindings share, to an exchange that work queue is not bound to, is that work queue's
 *       failed queue when its name says so (such as {@code ucenter@user@failed}, {@code worker-error}):
 *       consumers publish there, and nothing in the broker links it to the work queue but the keys.
 * </ul>
 *
 * <p>Everything else is listed, with the reason.
 */
final class Detector {

    private static final Set<String> WAIT_WORDS = Set.of("wait", "waiting", "retry", "retries", "delay", "delayed",
            "ttl", "backoff", "requeue", "later", "defer", "deferred");
    private static final Set<String> FAILED_WORDS = Set.of("error", "errors", "failed", "failure", "failures", "fail",
            "dead", "dlq", "parking", "parked", "poison", "undeliverable", "deadletter", "graveyard");

    private final Layout layout;
    private final Routes routes;
    private final Map<String, DeadLetter> deadLetters = new TreeMap<>();
    private final Map<String, WaitQueue> waits = new TreeMap<>();
    private final Map<String, String> waitOf = new TreeMap<>();
    private final Set<String> work = new TreeSet<>();
    private final Map<String, String> delayedExchange = new TreeMap<>();
    private final Map<String, FailedQueue> failed = new TreeMap<>();
    private final Map<String, String> failedOf = new TreeMap<>();
    private final Map<String, Entry> entries = new TreeMap<>();
    /** Why a queue without a TTL is taken for a work queue rather than a wait queue. */
    private final Map<String, String> workEvidence = new TreeMap<>();
    /** The queues whose dead-lettering has been accounted for, as a structure's or as a reason to list them. */
    private final Set<String> settled = new HashSet<>();
    private final Map<String, Listed> unmapped = new TreeMap<>();
    private final List<Listed> problems = new ArrayList<>();

    private Detector(Layout layout) {
        this.layout = layout;
        this.routes = new Routes(layout);
    }

    static Findings detect(Layout layout) {
        return new Detector(layout).detect();
    }

    private Findings detect() {
        for (QueueView queue : layout.queues().values()) {
            if (queue.deadLetterExchange().isPresent()) {
                deadLetters.put(queue.name(), routes.deadLetter(queue));
            }
        }
        // A message dead-lettered with its own routing key keeps the key it had in the queue before.
        for (String grown : routes.addDeadLettered(deadLetters)) {
            DeadLetter deadLetter = deadLetters.get(grown);
            if (deadLetter != null && deadLetter.routingKey().isEmpty()) {
                deadLetters.put(grown, routes.deadLetter(deadLetter.queue()));
            }
        }
        findTimedWaits();
        findDelayedExchanges();
        boolean changed = true;
        while (changed) {
            changed = settleWorkQueues() | settleUntimed();
        }
        listUnsettled();
        findPublishedFailedQueues();
        return new Findings(services(), listUnmapped(), problems);
    }

    /** Queues with a TTL that dead-letter to one other queue. */
    private void findTimedWaits() {
        for (DeadLetter deadLetter : deadLetters.values()) {
            QueueView queue = deadLetter.queue();
            if (queue.messageTtl().isEmpty()) {
                continue;
            }
            Optional<String> target = deadLetter.reach().single();
            String ttl = ttl(queue);
            if (target.isEmpty()) {
                list(queue.name(), "has a TTL (" + ttl + ") and dead-letters " + deadLetter.describe() + ", "
                        + reached(deadLetter.reach())
                        + "; a wait queue of the spec returns a retry to the failing service only");
                continue;
            }
            if (target.get().equals(queue.name())) {
                list(queue.name(), "has a TTL (" + ttl + ") and dead-letters " + deadLetter.describe()
                        + " back into itself, where RabbitMQ drops expired messages");
                continue;
            }
            QueueView back = layout.queue(target.get()).orElseThrow();
            if (back.messageTtl().isPresent() && back.deadLetterExchange().isPresent()) {
                list(queue.name(), "has a TTL (" + ttl + ") and dead-letters " + deadLetter.describe() + " into '"
                        + back.name() + "', which has a TTL too and dead-letters on: a chain of wait queues, or two "
                        + "work queues with a TTL; the broker does not say which");
                continue;
            }
            addWait(new WaitQueue(queue, deadLetter, Optional.empty()), back.name());
        }
    }

    /** Queues bound to a delayed-message exchange, which are work queues whose retries go through it. */
    private void findDelayedExchanges() {
        for (Exchange exchange : layout.exchanges().values()) {
            if (!exchange.type().equals(Routes.DELAYED_MESSAGE)) {
                continue;
            }
            for (String queue : routes.route(exchange.name(), Set.of(KeyPattern.ANY)).queues()) {
                if (waits.containsKey(queue)) {
                    problems.add(new Listed("queue", queue, "is bound to the delayed-message exchange '"
                            + exchange.name() + "' and is a wait queue of '" + waitOf.get(queue) + "'"));
                    continue;
                }
                work.add(queue);
                delayedExchange.putIfAbsent(queue, exchange.name());
            }
        }
    }

    /** Where work queues dead-letter: into their wait queue, into their failed queue, or elsewhere. */
    private boolean settleWorkQueues() {
        boolean changed = false;
        for (String name : work) {
            DeadLetter deadLetter = deadLetters.get(name);
            if (deadLetter == null || !settled.add(name)) {
                continue;
            }
            changed = true;
            Optional<String> target = deadLetter.reach().single();
            if (target.isEmpty()) {
                problems.add(new Listed("queue", name, "is a work queue that dead-letters " + deadLetter.describe()
                        + ", " + reached(deadLetter.reach()) + "; the draft's service dead-letters to its parking lot"));
                continue;
            }
            String into = target.get();
            if (name.equals(waitOf.get(into))) {
                entries.put(name, Entry.REJECTED);
            } else if (waitOf.containsKey(into)) {
                problems.add(new Listed("queue", name, "is a work queue that dead-letters " + deadLetter.describe()
                        + " into '" + into + "', the wait queue of '" + waitOf.get(into) + "'"));
            } else if (work.contains(into)) {
                problems.add(new Listed("queue", name, "is a work queue that dead-letters " + deadLetter.describe()
                        + " into '" + into + "', another work queue"));
            } else if (failedOf.containsKey(into)) {
                problems.add(new Listed("queue", name, "dead-letters " + deadLetter.describe() + " into '" + into
                        + "', the failed queue of '" + failedOf.get(into) + "' too"));
            } else if (goesNowhere(into)) {
                String why = !workEvidence.containsKey(name) ? "" : "; '" + name + "' is taken for the work queue "
                        + "rather than for a wait queue whose publisher sets each message's TTL, as "
                        + workEvidence.get(name);
                addFailed(new FailedQueue(layout.queue(into).orElseThrow(), true, "'" + name + "' dead-letters "
                        + deadLetter.describe() + " into it" + why), name);
            } else {
                problems.add(new Listed("queue", name, "is a work queue that dead-letters " + deadLetter.describe()
                        + " into '" + into + "', which dead-letters or expires on"));
            }
        }
        return changed;
    }

    /**
     * Queues without a TTL that dead-letter to one queue: a wait queue whose publisher sets each message's TTL,
     * or a work queue and its failed queue, as the evidence says.
     */
    private boolean settleUntimed() {
        boolean changed = false;
        for (DeadLetter deadLetter : deadLetters.values()) {
            QueueView queue = deadLetter.queue();
            String name = queue.name();
            if (settled.contains(name) || waits.containsKey(name) || work.contains(name) || failed.containsKey(name)
                    || queue.messageTtl().isPresent()) {
                continue;
            }
            Optional<String> target = deadLetter.reach().single();
            if (target.isEmpty() || target.get().equals(name)) {
                continue;
            }
            String into = target.get();
            if (waits.containsKey(into) || failed.containsKey(into)) {
                continue;
            }
            Optional<Verdict> verdict = waitRatherThanWork(queue, layout.queue(into).orElseThrow());
            if (verdict.isEmpty()) {
                continue;
            }
            settled.add(name);
            changed = true;
            if (verdict.get().waits()) {
                addWait(new WaitQueue(queue, deadLetter, Optional.of(verdict.get().evidence())), into);
            } else {
                work.add(name);
                workEvidence.put(name, verdict.get().evidence());
                settled.remove(name); // its dead-lettering is now a work queue's, settled as such
            }
        }
        return changed;
    }

    /** Whether a queue is a wait queue, rather than a work queue, and why, in a sentence. */
    private record Verdict(boolean waits, String evidence) {
    }

    /**
     * Whether a queue without a TTL that dead-letters into another is a wait queue, or a work queue whose failed
     * queue the other is; empty when nothing tells, or the evidence disagrees.
     */
    private Optional<Verdict> waitRatherThanWork(QueueView queue, QueueView into) {
        List<String> forWait = new ArrayList<>();
        List<String> forWork = new ArrayList<>();
        if (queue.deliveryLimit().isPresent()) {
            return Optional.of(new Verdict(false, "it has a delivery limit (" + queue.deliveryLimit().get().value()
                    + ", " + queue.deliveryLimit().get().from() + "), which a wait queue has no use for"));
        }
        if (work.contains(into.name())) {
            forWait.add("'" + into.name() + "' is a work queue already");
        }
        Optional<Map<String, Long>> consumers = layout.definitions().consumers();
        if (consumers.isPresent()) {
            long own = consumers.get().getOrDefault(queue.name(), 0L);
            long target = consumers.get().getOrDefault(into.name(), 0L);
            if (own == 0 && target > 0) {
                forWait.add("'" + into.name() + "' has consumers and it has none");
            } else if (own > 0 && target == 0) {
                forWork.add("it has consumers and '" + into.name() + "' has none");
            }
        }
        if (says(queue.name(), WAIT_WORDS)) {
            forWait.add("its name says it waits");
        }
        if (says(into.name(), FAILED_WORDS)) {
            forWork.add("the name of '" + into.name() + "' says it keeps failed messages");
        }
        if (forWait.isEmpty() == forWork.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Verdict(!forWait.isEmpty(), String.join(", and ", forWait.isEmpty() ? forWork : forWait)));
    }

    /** Lists the dead-lettering queues that no structure accounts for, with where they dead-letter. */
    private void listUnsettled() {
        for (DeadLetter deadLetter : deadLetters.values()) {
            QueueView queue = deadLetter.queue();
            String name = queue.name();
            if (settled.contains(name) || waits.containsKey(name) || unmapped.containsKey(name)) {
                continue;
            }
            if (failed.containsKey(name)) {
                problems.add(new Listed("queue", name, "is the failed queue of '" + failedOf.get(name)
                        + "' and dead-letters " + deadLetter.describe() + ", " + reached(deadLetter.reach())));
                continue;
            }
            Optional<String> target = deadLetter.reach().single();
            if (target.isEmpty()) {
                list(name, "dead-letters " + deadLetter.describe() + ", " + reached(deadLetter.reach()));
            } else if (target.get().equals(name)) {
                list(name, "dead-letters " + deadLetter.describe() + " back into itself");
            } else {
                String into = target.get();
                String role = waitOf.containsKey(into) ? ", the wait queue of '" + waitOf.get(into) + "'"
                        : failedOf.containsKey(into) ? ", the failed queue of '" + failedOf.get(into) + "'" : "";
                list(name, "has no TTL and dead-letters " + deadLetter.describe() + " into '" + into + "'" + role
                        + (role.isEmpty() ? ": either it waits for a TTL its publisher sets on each message and '"
                                + into + "' is the work queue, or it is the work queue and '" + into + "' keeps its "
                                + "failed messages; nothing in the broker tells which" : ""));
                if (role.isEmpty() && !work.contains(into)) {
                    list(into, "is where '" + name + "' dead-letters (see there)");
                }
            }
        }
    }

    /**
     * Failed queues that consumers publish into: a queue outside every structure, that nothing dead-letters into
     * and that neither dead-letters nor expires, bound with routing keys of one work queue to an exchange that
     * queue is not bound to, whose name says it keeps failed messages.
     */
    private void findPublishedFailedQueues() {
        Set<String> deadLetteredInto = new HashSet<>();
        deadLetters.values().forEach(deadLetter -> deadLetteredInto.addAll(deadLetter.reach().queues()));
        Map<String, Set<String>> workExchanges = new TreeMap<>();
        for (String owner : work) {
            Set<String> exchanges = new HashSet<>();
            layout.bindingsInto(owner).forEach(binding -> exchanges.add(binding.source()));
            workExchanges.put(owner, exchanges);
        }
        for (QueueView queue : layout.queues().values()) {
            String name = queue.name();
            if (work.contains(name) || waits.containsKey(name) || failed.containsKey(name) || unmapped.containsKey(name)
                    || deadLetteredInto.contains(name) || queue.deadLetterExchange().isPresent()
                    || queue.messageTtl().isPresent() || layout.bindingsInto(name).isEmpty()) {
                continue;
            }
            List<String> sharing = work.stream()
                    .filter(owner -> sharesKeysElsewhere(name, owner, workExchanges.get(owner))).toList();
            if (sharing.isEmpty()) {
                continue;
            }
            if (!says(name, FAILED_WORDS)) {
                list(name, "is bound with routing keys of " + quoted(sharing) + " to another exchange, and nothing "
                        + "dead-letters into it: it may keep failed messages that a consumer publishes there, or be "
                        + "another consumer's queue; its name does not say it keeps failed messages");
                continue;
            }
            List<String> owners = sharing.size() == 1 ? sharing
                    : sharing.stream().filter(owner -> name.startsWith(owner)).toList();
            if (owners.size() != 1) {
                list(name, "is bound with routing keys of " + quoted(sharing) + " to another exchange, and its name "
                        + "says it keeps failed messages, but not whose");
                continue;
            }
            String owner = owners.get(0);
            String exchanges = quoted(layout.bindingsInto(name).stream().map(Binding::source).distinct().sorted()
                    .toList());
            addFailed(new FailedQueue(queue, false, "bound to " + exchanges + " with routing keys of '" + owner
                    + "', nothing dead-letters into it, and its name says it keeps failed messages"
                    + (sharing.size() > 1 ? ", and begins with '" + owner + "'" : "")), owner);
        }
    }

    /**
     * Whether some routing key is bound to both queues, the candidate to an exchange the work queue is not bound
     * to: bound to the same exchange, it would take the same messages as another consumer does.
     */
    private boolean sharesKeysElsewhere(String candidate, String owner, Set<String> ownerExchanges) {
        if (layout.bindingsInto(candidate).stream().anyMatch(binding -> ownerExchanges.contains(binding.source()))) {
            return false;
        }
        for (KeyPattern key : routes.keysOf(candidate)) {
            for (KeyPattern other : routes.keysOf(owner)) {
                if (key.overlaps(other)) {
                    return true;
                }
            }
        }
        return false;
    }

    private void addWait(WaitQueue wait, String owner) {
        waits.put(wait.queue().name(), wait);
        waitOf.put(wait.queue().name(), owner);
        work.add(owner);
        settled.add(wait.queue().name());
    }

    private void addFailed(FailedQueue queue, String owner) {
        failed.put(queue.queue().name(), queue);
        failedOf.put(queue.queue().name(), owner);
    }

    private boolean goesNowhere(String queue) {
        QueueView view = layout.queue(queue).orElseThrow();
        return view.deadLetterExchange().isEmpty() && view.messageTtl().isEmpty();
    }

    private List<ServiceFinding> services() {
        List<ServiceFinding> services = new ArrayList<>();
        for (String name : work) {
            QueueView queue = layout.queue(name).orElseThrow();
            List<WaitQueue> own = waits.values().stream()
                    .filter(wait -> name.equals(waitOf.get(wait.queue().name())))
                    .sorted(Comparator.comparing((WaitQueue wait) -> wait.queue().messageTtl()
                                    .map(Layout.Setting::value).orElse(Long.MAX_VALUE))
                            .thenComparing(wait -> wait.queue().name()))
                    .toList();
            List<FailedQueue> kept = failed.values().stream()
                    .filter(queueFailed -> name.equals(failedOf.get(queueFailed.queue().name())))
                    .toList();
            if (queue.type().equals(QueueArguments.STREAM)) {
                list(name, "is a stream, which a service of retry.yml cannot consume");
                own.forEach(wait -> list(wait.queue().name(), "is the wait queue of '" + name + "', a stream"));
                kept.forEach(queueFailed -> list(queueFailed.queue().name(), "is the failed queue of '" + name
                        + "', a stream"));
                continue;
            }
            Entry entry = entries.getOrDefault(name, own.isEmpty()
                    ? (delayedExchange.containsKey(name) ? Entry.DELAYED : Entry.NONE) : Entry.REPUBLISHED);
            services.add(new ServiceFinding(queue, entry, own, kept, Optional.ofNullable(delayedExchange.get(name)),
                    Optional.ofNullable(deadLetters.get(name))));
        }
        return services;
    }

    private List<Listed> listUnmapped() {
        for (QueueView queue : layout.queues().values()) {
            String name = queue.name();
            if (work.contains(name) || waits.containsKey(name) || failed.containsKey(name)
                    || unmapped.containsKey(name)) {
                continue;
            }
            List<String> sources = layout.bindingsInto(name).stream().map(Binding::source).distinct().sorted().toList();
            String bound = sources.isEmpty() ? "it is bound to no exchange" : "it is bound to " + quoted(sources);
            String consumed = layout.definitions().consumers()
                    .map(counts -> counts.getOrDefault(name, 0L))
                    .map(count -> count == 1 ? "; it has 1 consumer" : "; it has " + count + " consumers")
                    .orElse("");
            list(name, "belongs to no retry structure: nothing dead-letters into it or out of it back to a work queue, "
                    + "and " + bound + consumed);
        }
        return List.copyOf(unmapped.values());
    }

    private void list(String queue, String reason) {
        unmapped.putIfAbsent(queue, new Listed("queue", queue, reason));
    }

    /** Whether a name holds one of these words, split at anything but letters and digits and at lower-to-upper. */
    static boolean says(String name, Set<String> words) {
        for (String word : name.replaceAll("([a-z0-9])([A-Z])", "$1 $2").split("[^A-Za-z0-9]+")) {
            if (words.contains(word.toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }

    private static String ttl(QueueView queue) {
        Layout.Setting<Long> ttl = queue.messageTtl().orElseThrow();
        return (ttl.value() > 0 ? Durations.format(Duration.ofMillis(ttl.value())) : "0 ms") + ", " + ttl.from();
    }

    private static String reached(Reach reach) {
        List<String> parts = new ArrayList<>();
        if (reach.queues().isEmpty()) {
            parts.add("which reaches no queue");
        } else {
            parts.add("which reaches " + (reach.queues().size() == 1 ? "queue " : "queues ") + quoted(reach.sortedQueues()));
        }
        if (!reach.doubts().isEmpty()) {
            parts.add("and " + String.join("; ", reach.doubts()));
        }
        return String.join(" ", parts);
    }

    static String quoted(List<String> names) {
        Map<String, Boolean> unique = new LinkedHashMap<>();
        names.forEach(name -> unique.put(name, true));
        return "'" + String.join("', '", unique.keySet()) + "'";
    }
}
