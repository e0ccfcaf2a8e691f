package io.github.retrytopology.operations.adopt;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.retrytopology.model.Names;
import io.github.retrytopology.model.QueueType;
import io.github.retrytopology.model.decision.BrokerDelay;
import io.github.retrytopology.model.decision.Durations;
import io.github.retrytopology.model.headers.DeathReason;
import io.github.retrytopology.model.headers.Header;
import io.github.retrytopology.model.topology.BrokerVersion;
import io.github.retrytopology.model.topology.QueueSetting;
import io.github.retrytopology.operations.adopt.AdoptionRecord.AttemptCount;
import io.github.retrytopology.operations.adopt.AdoptionRecord.Destination;
import io.github.retrytopology.operations.adopt.AdoptionRecord.Listed;
import io.github.retrytopology.operations.adopt.AdoptionRecord.OldBinding;
import io.github.retrytopology.operations.adopt.AdoptionRecord.OldQueue;
import io.github.retrytopology.operations.adopt.AdoptionRecord.Role;
import io.github.retrytopology.operations.adopt.AdoptionRecord.ServiceRecord;
import io.github.retrytopology.operations.adopt.AdoptionRecord.SpecExchange;
import io.github.retrytopology.operations.adopt.AdoptionRecord.Tier;
import io.github.retrytopology.operations.adopt.Definitions.Binding;
import io.github.retrytopology.operations.adopt.Draft.Value;
import io.github.retrytopology.operations.adopt.Findings.Entry;
import io.github.retrytopology.operations.adopt.Findings.FailedQueue;
import io.github.retrytopology.operations.adopt.Findings.ServiceFinding;
import io.github.retrytopology.operations.adopt.Findings.WaitQueue;
import io.github.retrytopology.operations.adopt.Layout.QueueView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Turns what was found into a draft spec and its record: names the services, chooses the spec's exchange, takes
 * the routing keys from the bindings, the delays from the TTLs, the queue types from the queues and maxAttempts
 * from a delivery limit, and writes down as assumed whatever the broker does not hold.
 */
final class Drafter {

    /** The delays drafted where the broker holds none: a publisher set each message's, or an {@code x-delay}. */
    static final List<Duration> ASSUMED_DELAYS = List.of(Duration.ofSeconds(10), Duration.ofMinutes(1),
            Duration.ofMinutes(10));
    /** The retries drafted where neither the broker nor the layout says how many. */
    static final int ASSUMED_RETRIES = 3;
    /** Sneakers' default {@code max_retries}: it retries that many times after the first delivery. */
    static final int SNEAKERS_MAX_RETRIES = 5;

    /** The arguments of a kept queue that would win over, or cap, what the spec's policies set on it. */
    private static final Set<String> CONFLICTING = QueueSetting.MESSAGE_FATE.stream().map(QueueSetting::argument)
            .collect(Collectors.toUnmodifiableSet());

    private final Layout layout;
    private final Findings findings;
    private final AdoptOptions options;
    private final Optional<BrokerVersion> target;
    private final List<Listed> unmapped = new ArrayList<>();
    private final List<Listed> problems = new ArrayList<>();
    private final Naming naming = new Naming();

    /** A draft and its record. */
    record Drafted(Draft draft, AdoptionRecord record) {
    }

    /** A service as drafted, and its old queues. */
    private record Planned(Draft.Service draft, ServiceRecord record, List<OldQueue> queues, ServiceFinding finding,
            List<Binding> publisherBindings) {
    }

    private Drafter(Layout layout, Findings findings, AdoptOptions options) {
        this.layout = layout;
        this.findings = findings;
        this.options = options;
        this.target = options.brokerVersion().or(() -> layout.definitions().brokerVersion().flatMap(Drafter::version));
        unmapped.addAll(findings.unmapped());
        problems.addAll(findings.problems());
    }

    static Drafted draft(Layout layout, Findings findings, AdoptOptions options) {
        return new Drafter(layout, findings, options).draft();
    }

    private static Optional<BrokerVersion> version(String text) {
        try {
            return Optional.of(BrokerVersion.parse(text));
        } catch (IllegalArgumentException notOne) {
            return Optional.empty();
        }
    }

    private Drafted draft() {
        Map<String, Set<String>> publishers = new LinkedHashMap<>();
        for (ServiceFinding finding : findings.services()) {
            publishers.put(finding.work().name(), publishers(finding));
        }
        Optional<String> chosen = choose(publishers);
        boolean topic = chosen.filter(name -> !name.startsWith("amq.") && layout.exchanges().containsKey(name)
                && layout.exchanges().get(name).type().equals("topic")).isPresent();
        String exchange = topic ? chosen.get() : Naming.topicExchange(chosen.orElse(""), layout.exchanges().keySet());
        List<Planned> planned = new ArrayList<>();
        for (ServiceFinding finding : findings.services()) {
            plan(finding, publishers.get(finding.work().name()), chosen).ifPresent(planned::add);
        }
        List<OldBinding> bridge = chosen.isPresent() && !topic ? bridge(chosen.get(), exchange, planned) : List.of();
        Leftovers leftovers = Leftovers.of(layout, planned.stream().map(Planned::finding).toList(),
                chosen.filter(name -> topic).stream().collect(Collectors.toSet()),
                planned.stream().flatMap(service -> service.publisherBindings().stream()).toList(), !topic,
                specQueues(planned));
        unmapped.addAll(leftovers.unmapped());
        problems.addAll(leftovers.problems());
        unmapped.sort(Comparator.comparing(Listed::kind).thenComparing(Listed::name));
        SpecExchange specExchange = new SpecExchange(exchange, topic, chosen.stream().toList(), bridge);
        List<OldQueue> queues = planned.stream().flatMap(service -> service.queues().stream())
                .sorted(Comparator.comparing(OldQueue::queue)).toList();
        AdoptionRecord record = new AdoptionRecord(AdoptionRecord.SCHEMA, layout.definitions().vhost(),
                layout.definitions().source(), layout.definitions().brokerVersion(), options.specFile(), specExchange,
                planned.stream().map(Planned::record).toList(), queues, leftovers.replaced(), unmapped, problems);
        Draft draft = new Draft(header(planned.isEmpty(), unmapped.isEmpty()), javaPackage(), vhost(),
                exchangeValue(exchange, chosen, topic), planned.stream().map(Planned::draft).toList(),
                trailer(unmapped, problems));
        return new Drafted(draft, record);
    }

    /**
     * The exchanges publishers reach a work queue through: those bound to it that no retry structure
     * dead-letters into, or if there are none, those that a wait queue of it dead-letters into (as {@code master}
     * of a spec whose retry queue returns there), the delayed-message exchange last.
     */
    private Set<String> publishers(ServiceFinding finding) {
        Set<String> bound = new TreeSet<>();
        layout.bindingsInto(finding.work().name()).forEach(binding -> bound.add(binding.source()));
        Set<String> deadLetterExchanges = new TreeSet<>();
        finding.waits().forEach(wait -> deadLetterExchanges.add(wait.back().exchange().value()));
        Set<String> delayed = new TreeSet<>();
        bound.stream().filter(name -> layout.exchanges().containsKey(name)
                && layout.exchanges().get(name).type().equals(Routes.DELAYED_MESSAGE)).forEach(delayed::add);
        Set<String> plain = new TreeSet<>(bound);
        plain.removeAll(deadLetterExchanges);
        plain.removeAll(delayed);
        if (!plain.isEmpty()) {
            return plain;
        }
        Set<String> returning = new TreeSet<>(bound);
        returning.removeAll(delayed);
        return returning.isEmpty() ? delayed : returning;
    }

    /** The exchange most services' publishers use; the first by name among equals. */
    private static Optional<String> choose(Map<String, Set<String>> publishers) {
        Map<String, Integer> votes = new TreeMap<>();
        publishers.values().forEach(exchanges -> exchanges.forEach(name -> votes.merge(name, 1, Integer::sum)));
        return votes.entrySet().stream()
                .max(Comparator.comparing(Map.Entry<String, Integer>::getValue)
                        .thenComparing(Map.Entry::getKey, Comparator.reverseOrder()))
                .map(Map.Entry::getKey);
    }

    private Optional<Planned> plan(ServiceFinding finding, Set<String> own, Optional<String> chosen) {
        QueueView work = finding.work();
        String queue = work.name();
        Set<String> from = chosen.filter(own::contains).map(Set::of).orElse(own);
        List<Binding> bindings = layout.bindingsInto(queue).stream().filter(binding -> from.contains(binding.source()))
                .toList();
        RoutingKeys keys = RoutingKeys.of(queue, bindings, name -> layout.routingType(name).orElse("direct"));
        problems.addAll(keys.problems());
        if (keys.keys().isEmpty()) {
            unmapped.add(new Listed("queue", queue, "is a work queue, but none of its routing keys is one the spec "
                    + "can take (see the problems)"));
            finding.waits().forEach(wait -> unmapped.add(new Listed("queue", wait.queue().name(), "is a wait queue of '"
                    + queue + "', which the draft could not make a service of")));
            finding.failed().forEach(failed -> unmapped.add(new Listed("queue", failed.queue().name(), "is the failed "
                    + "queue of '" + queue + "', which the draft could not make a service of")));
            return Optional.empty();
        }
        if (chosen.isPresent() && !own.isEmpty() && !own.contains(chosen.get())) {
            problems.add(new Listed("queue", queue, "is bound to " + Detector.quoted(List.copyOf(own)) + ", not to '"
                    + chosen.get() + "'; the spec binds every service to its one exchange, so what publishers send to "
                    + Detector.quoted(List.copyOf(own)) + " would no longer reach it"));
        } else if (from.size() > 1) {
            problems.add(new Listed("queue", queue, "is bound to " + Detector.quoted(List.copyOf(from)) + "; the spec "
                    + "binds it to its one exchange only"));
        }
        String name = naming.service(queue);
        Retries retries = retries(finding);
        List<Tier> tiers = new ArrayList<>();
        int tierCount = retries.brokerDelay() ? 0 : Math.min(retries.maxAttempts() - 1, retries.delays().size());
        for (int tier = 1; tier <= tierCount; tier++) {
            tiers.add(new Tier(tier, Names.tierQueue(name, tier), retries.delays().get(tier - 1)));
        }
        ServiceRecord record = new ServiceRecord(name, queue, tiers, Names.parkingLot(name), retries.maxAttempts());
        List<OldQueue> queues = new ArrayList<>();
        queues.add(new OldQueue(queue, Role.WORK, name, Optional.empty(), new Destination.ServiceQueue(queue),
                count(finding, 0), plain(work.queue().arguments()), conflicting(work)));
        for (WaitQueue wait : finding.waits()) {
            Optional<Duration> delay = wait.queue().messageTtl().map(ttl -> Duration.ofMillis(ttl.value()));
            Destination destination = tiers.isEmpty() ? new Destination.ServiceQueue(queue)
                    : delay.isEmpty() ? new Destination.TierByDelay(tiers)
                    : tierFor(delay.get(), tiers);
            queues.add(new OldQueue(wait.queue().name(), Role.WAIT, name, delay, destination,
                    count(finding, finding.entry() == Entry.REJECTED ? 0 : 1), plain(wait.queue().queue().arguments()),
                    List.of()));
        }
        for (FailedQueue failed : finding.failed()) {
            queues.add(new OldQueue(failed.queue().name(), Role.FAILED, name, Optional.empty(),
                    new Destination.ParkingLot(Names.parkingLot(name)), count(finding, failed.deadLettered() ? 0 : 1),
                    plain(failed.queue().queue().arguments()), List.of()));
        }
        Draft.Service draft = new Draft.Service(name, origin(finding, bindings), Value.of(queue),
                queueType(finding), keys.keys(), keys.comments(), retries.maxAttemptsValue(),
                retries.brokerDelay() ? Optional.of(retries.delayByValue()) : Optional.empty(),
                retries.maxAttempts() > 1 ? Optional.of(retries.delaysValue()) : Optional.empty());
        return Optional.of(new Planned(draft, record, queues, finding, bindings));
    }

    /** The spec's wait queue for an old one's TTL: the tier of that delay, else the last tier. */
    private static Destination tierFor(Duration delay, List<Tier> tiers) {
        for (Tier tier : tiers) {
            if (tier.delay().equals(delay)) {
                return new Destination.TierQueue(tier.tier(), tier.queue());
            }
        }
        Tier last = tiers.get(tiers.size() - 1);
        return new Destination.TierQueue(last.tier(), last.queue());
    }

    /**
     * How a message's failures are counted in a service's old queues.
     *
     * @param plus 1 where the failure that put the message there was a publish, which {@code x-death} does not
     *     count
     */
    private static AttemptCount count(ServiceFinding finding, int plus) {
        String work = finding.work().name();
        return switch (finding.entry()) {
            case REJECTED -> new AttemptCount.XDeath(List.of(work), DeathReason.REJECTED.id(), plus);
            case REPUBLISHED -> new AttemptCount.XDeath(finding.waits().stream().map(wait -> wait.queue().name())
                    .sorted().toList(), DeathReason.EXPIRED.id(), plus);
            case DELAYED -> new AttemptCount.Unknown("the delayed-message exchange '" + finding.delayedExchange()
                    .orElseThrow() + "' keeps no count, and dead-lettering none: a count the consumers kept is in a "
                    + "header of their own, if anywhere");
            case NONE -> finding.work().deliveryLimit().isPresent() && finding.work().type().equals(QueueType.QUORUM.id())
                    ? new AttemptCount.Header(Header.X_DELIVERY_COUNT.name())
                    : new AttemptCount.XDeath(List.of(work), DeathReason.REJECTED.id(), plus);
        };
    }

    /** How a service retries, as far as the broker says, and what is assumed beyond. */
    private record Retries(int maxAttempts, List<Duration> delays, boolean brokerDelay, Value maxAttemptsValue,
            Value delaysValue, Value delayByValue) {
    }

    private Retries retries(ServiceFinding finding) {
        QueueView work = finding.work();
        String queue = work.name();
        List<WaitQueue> timed = finding.waits().stream().filter(wait -> !wait.perMessage()).toList();
        List<WaitQueue> perMessage = finding.waits().stream().filter(WaitQueue::perMessage).toList();
        List<Duration> delays = timed.stream().map(wait -> delay(wait.queue().messageTtl().orElseThrow().value()))
                .distinct().sorted().toList();
        List<String> delayComments = new ArrayList<>();
        boolean assumedDelays = delays.isEmpty();
        if (!timed.isEmpty()) {
            delayComments.add("From the TTLs of its wait queues, shortest first: " + timed.stream()
                    .map(wait -> "'" + wait.queue().name() + "' " + Durations.format(delay(wait.queue().messageTtl()
                            .orElseThrow().value())) + " (" + wait.queue().messageTtl().orElseThrow().from() + ")")
                    .collect(Collectors.joining(", ")) + "."
                    + (delays.size() > 1 ? " assumed: each retry waits longer than the one before; the broker does "
                            + "not hold which retry used which queue." : ""));
        }
        if (!perMessage.isEmpty()) {
            delayComments.add("assumed: " + Detector.quoted(perMessage.stream().map(wait -> wait.queue().name())
                    .toList()) + " has no TTL of its own: its publisher sets each message's (expiration), which the "
                    + "broker does not hold (x-death's original-expiration shows it on a message that came back)."
                    + (assumedDelays ? " These delays are this tool's default: set the ones your publisher uses." : ""));
        }
        if (finding.entry() == Entry.DELAYED && assumedDelays) {
            delayComments.add("assumed: the delayed-message exchange '" + finding.delayedExchange().orElseThrow()
                    + "' delays each message by its x-delay header, which the broker does not hold. These delays "
                    + "are this tool's default: set the ones your publishers use.");
        }
        int retries;
        String attempts;
        if (work.deliveryLimit().isPresent()) {
            long limit = work.deliveryLimit().get().value();
            retries = (int) Math.min(limit, Integer.MAX_VALUE - 1L);
            attempts = "From the delivery limit of '" + queue + "' (" + limit + ", " + work.deliveryLimit().get().from()
                    + "): the broker delivers a message at most " + (limit + 1) + " times before it dead-letters it.";
        } else if (sneakers(finding)) {
            retries = SNEAKERS_MAX_RETRIES;
            attempts = "assumed: the broker does not hold maxAttempts, the consumer's code does. The layout is "
                    + "Sneakers' ('" + queue + "-retry', '" + queue + "-retry-requeue', '" + queue + "-error'), whose "
                    + "default max_retries is " + SNEAKERS_MAX_RETRIES + ": " + SNEAKERS_MAX_RETRIES + " retries after "
                    + "the first delivery. Set yours.";
        } else if (finding.entry() == Entry.NONE) {
            retries = 0;
            attempts = "assumed: the broker holds no retry for '" + queue + "': "
                    + (finding.failed().isEmpty() ? "a rejected message is dropped"
                            : "a rejected message goes to " + Detector.quoted(finding.failed().stream()
                                    .map(failed -> failed.queue().name()).toList()))
                    + ". 1 means never retry.";
        } else if (delays.size() > 1) {
            retries = delays.size();
            attempts = "assumed: one retry through each wait queue, then the parking lot; the broker does not hold "
                    + "maxAttempts, the consumer's code does: set yours.";
        } else {
            retries = ASSUMED_RETRIES;
            attempts = "assumed: " + ASSUMED_RETRIES + " retries; the broker does not hold maxAttempts, the "
                    + "consumer's code does: set yours.";
        }
        if (assumedDelays && retries > 0 && perMessage.isEmpty() && finding.entry() != Entry.DELAYED) {
            delays = List.of(Duration.ofSeconds(1));
            delayComments.add("assumed: '" + queue + "' has no wait queue, so a retry came back at once (the "
                    + "consumer rejecting with requeue); the spec waits between retries.");
        } else if (assumedDelays) {
            delays = ASSUMED_DELAYS;
        }
        boolean brokerDelay = finding.entry() == Entry.DELAYED && finding.waits().isEmpty() && retries > 0
                && work.type().equals(QueueType.QUORUM.id()) && target.filter(version -> version.atLeast(BrokerVersion.DELAYED_RETRY))
                        .isPresent();
        Value delayBy = Value.of("broker");
        if (brokerDelay) {
            delays = brokerDelays(delays, retries);
            delayComments.add("The broker's delays grow by the same step each retry, so the default is drafted in "
                    + "that form.");
            delayBy = Value.of("broker", "RabbitMQ " + target.orElseThrow() + " delays a retry in the service's own "
                    + "quorum queue, which replaces the delayed-message exchange (which RabbitMQ 4.3 cannot run): it "
                    + "waits d, 2d, 3d, ... up to the longest delay.");
        }
        String written = delays.stream().limit(Math.max(1, Math.min(retries, delays.size())))
                .map(Durations::write).collect(Collectors.joining(", ", "[", "]"));
        if (!brokerDelay && delays.size() > retries && retries > 0) {
            delayComments.add("Only " + retries + " of these " + delays.size() + " delays are used with maxAttempts "
                    + (retries + 1) + "; the messages of the other wait queues go to the last tier.");
        }
        return new Retries(retries + 1, delays, brokerDelay, Value.of(String.valueOf(retries + 1), attempts),
                new Value(written, delayComments), delayBy);
    }

    /** The broker's delays nearest to these, written out for every retry until they stop growing. */
    private static List<Duration> brokerDelays(List<Duration> delays, int retries) {
        BrokerDelay delay = BrokerDelay.nearest(delays, retries);
        List<Duration> written = new ArrayList<>();
        for (int retry = 1; retry <= retries; retry++) {
            Duration next = delay.before(retry);
            if (!written.isEmpty() && written.get(written.size() - 1).equals(next)) {
                break;
            }
            written.add(next);
        }
        return written;
    }

    /** A TTL as a spec's delay: a TTL of 0 expires at once, and a spec's shortest delay is 1 ms. */
    private static Duration delay(long ttl) {
        return Duration.ofMillis(Math.max(1, ttl));
    }

    /**
     * Whether the layout is that of Sneakers' Maxretry handler, by its names on top of its structure: the work
     * queue dead-letters to {@code Q-retry}, whose queue dead-letters to {@code Q-retry-requeue}.
     */
    private static boolean sneakers(ServiceFinding finding) {
        String queue = finding.work().name();
        return finding.entry() == Entry.REJECTED && finding.deadLetter().isPresent()
                && finding.deadLetter().get().exchange().value().equals(queue + "-retry")
                && finding.waits().size() == 1
                && finding.waits().get(0).queue().name().equals(queue + "-retry")
                && finding.waits().get(0).back().exchange().value().equals(queue + "-retry-requeue");
    }

    private Value queueType(ServiceFinding finding) {
        String type = finding.work().type();
        Set<String> others = new TreeSet<>();
        finding.waits().forEach(wait -> others.add(wait.queue().name() + " (" + wait.queue().type() + ")"));
        finding.failed().forEach(failed -> others.add(failed.queue().name() + " (" + failed.queue().type() + ")"));
        List<String> differing = others.stream().filter(name -> !name.endsWith("(" + type + ")")).toList();
        if (differing.isEmpty()) {
            return Value.of(type);
        }
        return Value.of(type, "From '" + finding.work().name() + "', which the spec keeps. The spec's queues are "
                + "all of one type, and " + String.join(", ", differing) + " differ.");
    }

    /** The comment that names the objects a service came from. */
    private List<String> origin(ServiceFinding finding, List<Binding> bindings) {
        QueueView work = finding.work();
        List<String> lines = new ArrayList<>();
        // Sorted: brokers export bindings in no fixed order, and the same topology must give the same draft.
        Map<String, Set<String>> bound = new TreeMap<>();
        layout.bindingsInto(work.name()).forEach(binding -> bound.computeIfAbsent(binding.source(),
                name -> new TreeSet<>()).add("'" + binding.routingKey() + "'"));
        String bindingText = bound.isEmpty() ? "bound to no exchange"
                : "bound to " + bound.entrySet().stream()
                        .map(entry -> "'" + entry.getKey() + "' with " + String.join(", ", entry.getValue()))
                        .collect(Collectors.joining("; to "));
        lines.add("From queue '" + work.name() + "' (" + work.type() + ", " + bindingText + ").");
        for (WaitQueue wait : finding.waits()) {
            String ttl = wait.queue().messageTtl().map(setting -> "TTL " + Durations.format(delay(setting.value()))
                    + " (" + setting.from() + ")").orElse("no TTL of its own");
            String entry = switch (finding.entry()) {
                case REJECTED -> "'" + work.name() + "' dead-letters its rejected messages into it "
                        + finding.deadLetter().orElseThrow().describe() + ".";
                default -> "Nothing dead-letters into it: a consumer publishes failed messages there.";
            };
            lines.add("Wait queue '" + wait.queue().name() + "': " + ttl + "; it dead-letters "
                    + wait.back().describe() + " back to '" + work.name() + "'. " + entry
                    + wait.evidence().map(evidence -> " It is taken for a wait queue, not for the work queue, as "
                            + evidence + ".").orElse(""));
        }
        finding.delayedExchange().ifPresent(exchange -> lines.add("Delayed-message exchange '" + exchange
                + "' (x-delayed-type " + layout.routingType(exchange).orElse("?") + ") routes to it: a failed "
                + "message is published back through it with an x-delay header."));
        for (FailedQueue failed : finding.failed()) {
            lines.add("Failed queue '" + failed.queue().name() + "': " + failed.evidence() + ".");
        }
        if (bindings.isEmpty() && !bound.isEmpty()) {
            lines.add("None of its bindings is from an exchange publishers use.");
        }
        return lines;
    }

    /** The bindings from the exchange publishers use to the spec's new one, for each key the services take. */
    private List<OldBinding> bridge(String publishers, String exchange, List<Planned> planned) {
        String type = layout.routingType(publishers).orElse("direct");
        Set<String> keys = new TreeSet<>();
        if (type.equals("fanout") || type.equals("headers")) {
            keys.add("");
        } else {
            planned.forEach(service -> service.publisherBindings().stream()
                    .filter(binding -> binding.source().equals(publishers))
                    .forEach(binding -> keys.add(binding.routingKey())));
        }
        return keys.stream().map(key -> new OldBinding(publishers, exchange, "exchange", key, Map.of())).toList();
    }

    /** Every queue name the spec declares, with the service it belongs to. */
    private static Map<String, String> specQueues(List<Planned> planned) {
        Map<String, String> names = new TreeMap<>();
        for (Planned service : planned) {
            ServiceRecord record = service.record();
            names.put(record.queue(), record.service());
            record.tiers().forEach(tier -> names.put(tier.queue(), record.service()));
            names.put(record.parkingLot(), record.service());
        }
        return names;
    }

    private List<String> conflicting(QueueView work) {
        List<String> names = new ArrayList<>();
        work.queue().arguments().fieldNames().forEachRemaining(name -> {
            if (CONFLICTING.contains(name)) {
                names.add(name);
            }
        });
        return names.stream().sorted().toList();
    }

    private static Map<String, Object> plain(ObjectNode arguments) {
        return Json.map(arguments);
    }

    private List<String> header(boolean empty, boolean nothingListed) {
        List<String> header = new ArrayList<>();
        Definitions definitions = layout.definitions();
        header.add("Drafted by `retry adopt` from " + definitions.source()
                + definitions.brokerVersion().map(version -> " (RabbitMQ " + version + ")").orElse("") + ".");
        if (empty) {
            header.add("The virtual host '" + definitions.vhost() + "' has no retry structure: no queue dead-letters "
                    + "back to a work queue after a TTL, and no queue is bound to a delayed-message exchange"
                    + (definitions.queueCount() == 0 ? " (it has no queue at all)" : "")
                    + ". A spec needs at least one service, so this draft has none of its keys"
                    + (nothingListed ? "." : "; the end of this file lists what the virtual host holds."));
            return header;
        }
        header.add("Check each line marked \"assumed:\" before you use this file. " + adoptionFile()
                + ", beside it, says where the messages of each old queue go; docs/adopting.md says what to check for "
                + "each kind of topology.");
        return header;
    }

    private String adoptionFile() {
        return AdoptionFiles.recordName(options.specFile());
    }

    private Value javaPackage() {
        if (options.javaPackage().isPresent()) {
            return Value.of(options.javaPackage().get());
        }
        return Value.of(Naming.javaPackage(layout.definitions().vhost()), "assumed: a Java package made from the "
                + "virtual host's name; name your own here, or run adopt with --package.");
    }

    private Value vhost() {
        Definitions definitions = layout.definitions();
        if (definitions.vhostNamed()) {
            return Value.of(definitions.vhost());
        }
        return Value.of(definitions.vhost(), "assumed: the definitions file is an export of one virtual host, which "
                + "does not name it; '" + Definitions.DEFAULT_VHOST + "' unless adopt's --vhost names another.");
    }

    private Value exchangeValue(String exchange, Optional<String> chosen, boolean topic) {
        if (topic) {
            return Value.of(exchange, "The topic exchange publishers use today.");
        }
        if (chosen.isEmpty()) {
            return Value.of(exchange, "assumed: a new topic exchange. No exchange routes to these queues today: "
                    + "publishers send to them by name through the default exchange, which still reaches the queues "
                    + "the spec keeps.");
        }
        String type = layout.exchanges().containsKey(chosen.get()) ? layout.exchanges().get(chosen.get()).type()
                : layout.routingType(chosen.get()).orElse("unknown");
        String why = chosen.get().startsWith("amq.") ? "one of RabbitMQ's own, which a spec cannot name"
                : "a " + type + " exchange, and the spec's exchange is a topic exchange (RabbitMQ never changes an "
                        + "exchange's type)";
        return Value.of(exchange, "assumed: a new topic exchange. Publishers use '" + chosen.get() + "' today, " + why
                + ": " + adoptionFile() + " lists the bindings from '" + chosen.get() + "' to it that let them keep "
                + "publishing there.");
    }

    /** The closing comment of a draft: what is unmapped, and the problems. */
    static List<String> trailer(List<Listed> unmapped, List<Listed> problems) {
        List<String> trailer = new ArrayList<>();
        if (!unmapped.isEmpty()) {
            trailer.add("Left unmapped (" + unmapped.size() + "): no retry structure holds these, and the spec does not "
                    + "replace them.");
            unmapped.forEach(listed -> trailer.add("- " + listed));
        }
        if (!problems.isEmpty()) {
            if (!trailer.isEmpty()) {
                trailer.add("");
            }
            trailer.add("Problems (" + problems.size() + "): what this draft cannot say as the broker has it.");
            problems.forEach(listed -> trailer.add("- " + listed));
        }
        return trailer;
    }
}
