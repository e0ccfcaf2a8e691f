package io.github.retrytopology.operations.plan;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.Protocol;
import io.github.retrytopology.model.QueueType;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.decision.DelayBackend;
import io.github.retrytopology.model.topology.BrokerVersion;
import io.github.retrytopology.operations.broker.BrokerAccess;
import io.github.retrytopology.operations.broker.ManagementApi;
import io.github.retrytopology.operations.plan.PlanEntry.Action;
import io.github.retrytopology.operations.plan.PlanEntry.Kind;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Keeps a live broker in step with a spec: {@link #plan} says, object by object, what differs in the spec's
 * virtual host; {@link #apply} does the safe part of it, and more when asked.
 *
 * <pre>{@code
 * TopologyPlanner planner = TopologyPlanner.of(BrokerAccess.of(List.of("https://rabbit:15671"), List.of(),
 *         Optional.of("deployer"), Optional.of(secret)));
 * Plan plan = planner.plan(Specs.load(Path.of("retry.yml")));
 * PlanTable.lines(plan).forEach(System.out::println);
 * }</pre>
 *
 * Needs Jackson ({@code jackson-databind}) on the class path, an optional dependency of the runtime, and a user
 * with the management API's {@code administrator} tag, which RabbitMQ requires for exporting a vhost's definitions.
 */
public final class TopologyPlanner {

    /**
     * How long after a reading {@code messages_dlx} is read again, when a queue had dead-lettered messages waiting
     * for a target that exists: longer than the broker's statistics interval (5 s by default).
     */
    static final Duration DEAD_LETTERS_AGAIN = Duration.ofSeconds(6);
    /**
     * How many times at most: a broker under load can be late with its statistics once, and a count it has not
     * refreshed must not pass for a stall.
     */
    static final int DEAD_LETTER_READINGS = 2;

    private final BrokerAccess access;
    private final ManagementApi api;
    private final Sleeper sleeper;

    private TopologyPlanner(BrokerAccess access, Sleeper sleeper) {
        this.access = access;
        this.api = access.managementApi();
        this.sleeper = sleeper;
    }

    /** A planner for the broker that {@code access} reaches. */
    public static TopologyPlanner of(BrokerAccess access) {
        return of(access, duration -> Thread.sleep(duration.toMillis()));
    }

    /** A planner that waits for the broker's statistics with this, for tests that move time by hand. */
    static TopologyPlanner of(BrokerAccess access, Sleeper sleeper) {
        return new TopologyPlanner(requireNonNull(access, "access"), requireNonNull(sleeper, "sleeper"));
    }

    /**
     * Reads the spec's virtual host, in two requests to the management API (three when the spec has classic
     * queues, to count the cluster's nodes), and compares it with the spec. When a queue holds dead-lettered
     * messages waiting for a target that exists, their count is read again, {@link #DEAD_LETTERS_AGAIN} later and,
     * if it has not fallen, once more, to tell whether the queue forwards them.
     *
     * @throws IOException if the broker cannot be read, the virtual host does not exist, or the broker is older than
     *     the spec needs
     */
    public Plan plan(RetrySpec spec) throws IOException {
        return read(spec).plan();
    }

    /**
     * A virtual host as read, its plan, and why its counts are the statistics', where they could not be read live.
     */
    private record Reading(BrokerState state, Plan compared, Optional<String> statisticsOnly) {

        Plan plan() {
            return warned(compared);
        }

        private Plan warned(Plan plan) {
            if (statisticsOnly.isEmpty()) {
                return plan;
            }
            List<String> warnings = new ArrayList<>(plan.warnings());
            warnings.add(statisticsOnly.get());
            return new Plan(plan.vhost(), plan.exchange(), plan.broker(), plan.entries(), warnings);
        }
    }

    private Reading read(RetrySpec spec) throws IOException {
        requireVersion(spec);
        BrokerState state = BrokerState.read(api, spec.vhost(), countsNodes(spec));
        for (int reading = 0; reading < DEAD_LETTER_READINGS && !state.notSeenForwarding().isEmpty(); reading++) {
            state = state.readDeadLetteredAgain(api, spec.vhost(), DEAD_LETTERS_AGAIN, sleeper);
        }
        // The queues the plan would change, whose counts a person weighs: counted as they are now, and compared again.
        Plan compared = Planner.plan(spec, state, api.base());
        List<String> changed = compared.drift().stream()
                .filter(entry -> entry.kind() == Kind.QUEUE && entry.action() != Action.CREATE)
                .map(PlanEntry::name)
                .toList();
        if (changed.isEmpty()) {
            return new Reading(state, compared, Optional.empty());
        }
        try {
            BrokerState counted = state.withLiveCounts(LiveCounts.read(access, spec.vhost(), changed));
            return new Reading(counted, Planner.plan(spec, counted, api.base()), Optional.empty());
        } catch (IOException unreachable) {
            return new Reading(state, compared, Optional.of("The counts of the queues to change are the management API's "
                    + "statistics, up to its collection interval old: AMQP at " + access.amqpUris()
                    + " did not answer (" + unreachable.getMessage() + ")"));
        }
    }

    /** Whether reading the broker for this spec counts the cluster's nodes: its classic queues need the count. */
    private static boolean countsNodes(RetrySpec spec) {
        return spec.services().stream().anyMatch(service -> service.queueType() == QueueType.CLASSIC);
    }

    /**
     * Refuses a spec that needs a newer RabbitMQ than the broker, before anything is compared or changed: an older
     * broker refuses the policies of the broker's delayed retry, and takes them as queue arguments it ignores.
     */
    private void requireVersion(RetrySpec spec) throws IOException {
        Optional<BrokerVersion> required = BrokerVersion.requiredBy(spec.services());
        if (required.isEmpty()) {
            return;
        }
        String reported = api.brokerVersion();
        BrokerVersion version;
        try {
            version = BrokerVersion.parse(reported);
        } catch (IllegalArgumentException unreadable) {
            throw new IOException("the broker at " + api.base() + " reports no RabbitMQ version ('" + reported
                    + "'), and the spec needs " + required.get() + " or later; nothing was changed", unreadable);
        }
        if (!version.atLeast(required.get())) {
            List<String> services = spec.services().stream()
                    .filter(service -> service.delayBackend() == DelayBackend.BROKER)
                    .map(Service::name)
                    .toList();
            boolean overAmqp10 = spec.services().stream().anyMatch(service -> service.protocol() == Protocol.AMQP_1_0);
            throw new IOException("the broker at " + api.base() + " is RabbitMQ " + version + ", and " + services
                    + " have the broker delay their retries (delayBy: broker" + (overAmqp10 ? ", or protocol: amqp-1.0"
                    : "") + "), which needs RabbitMQ " + required.get() + " or later; nothing was changed. Upgrade the "
                    + "broker, or delay by tier-queues" + partialImport(spec, required.get()));
        }
    }

    /**
     * What an import of the spec's definitions left on a broker too old for them, said as such, or nothing: such an
     * import fails at the first policy the broker does not know, after the exchange and the policies before it.
     */
    private String partialImport(RetrySpec spec, BrokerVersion required) {
        List<String> present;
        try {
            BrokerState state = BrokerState.read(api, spec.vhost(), countsNodes(spec));
            present = Planner.plan(spec, state, api.base()).entries().stream()
                    .filter(entry -> entry.action() != Action.CREATE && entry.action() != Action.ORPHAN)
                    .map(PlanEntry::object)
                    .toList();
        } catch (IOException unread) {
            return "";
        }
        if (present.isEmpty()) {
            return "";
        }
        return ". The virtual host " + spec.vhost() + " already holds " + Words.count(present.size(), "object")
                + " of the spec, as a partial import of its definitions leaves them: " + String.join(", ", present)
                + "; the spec cannot run on this broker with them: delete them, or apply once it is RabbitMQ " + required
                + " or later";
    }

    /**
     * Plans, then does what the options allow, telling {@code progress} each step as it goes, then plans again.
     *
     * @throws IOException if the broker cannot be read or refuses a change; the steps done until then are kept,
     *     and were told to {@code progress}
     */
    public ApplyReport apply(RetrySpec spec, ApplyOptions options, Consumer<String> progress) throws IOException {
        Reading reading = read(spec);
        BrokerState broker = reading.state();
        Plan before = reading.plan();
        ApplyReport.Builder report = new ApplyReport.Builder(before);
        new Applier(spec, broker, before, api, access, options, progress, report).apply();
        return report.build(plan(spec));
    }
}
