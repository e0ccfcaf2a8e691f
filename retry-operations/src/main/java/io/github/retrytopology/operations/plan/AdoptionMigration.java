package io.github.retrytopology.operations.plan;

import static java.util.Objects.requireNonNull;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.http.client.domain.BindingInfo;
import com.rabbitmq.http.client.domain.DestinationType;
import io.github.retrytopology.model.Names;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.headers.DeathField;
import io.github.retrytopology.model.headers.Header;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.operations.adopt.AdoptionRecord;
import io.github.retrytopology.operations.adopt.AdoptionRecord.Destination;
import io.github.retrytopology.operations.adopt.AdoptionRecord.OldBinding;
import io.github.retrytopology.operations.adopt.AdoptionRecord.OldQueue;
import io.github.retrytopology.operations.adopt.AdoptionRecord.Role;
import io.github.retrytopology.operations.adopt.AdoptionRecord.ServiceRecord;
import io.github.retrytopology.operations.adopt.AdoptionRecord.Tier;
import io.github.retrytopology.operations.broker.BrokerAccess;
import io.github.retrytopology.operations.broker.ManagementApi;
import io.github.retrytopology.operations.broker.ManagementApiException;
import io.github.retrytopology.operations.move.Destinations;
import io.github.retrytopology.operations.move.HeaderRewrite;
import io.github.retrytopology.operations.move.MessageMover;
import io.github.retrytopology.operations.move.MoveOptions;
import io.github.retrytopology.operations.move.MoveReport;
import io.github.retrytopology.operations.plan.AdoptionStep.Action;
import io.github.retrytopology.operations.plan.AdoptionStep.State;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Moves a virtual host off the retry topology it ran, onto the spec {@code adopt} drafted for it, as the adoption
 * record says: {@link #plan} lists the steps with their messages counted live, changing nothing; {@link #apply}
 * takes them, in this order, each one safe to take again after an interruption at any point.
 *
 * <ol>
 *   <li>No old queue may have a consumer: an old consumer's retries would travel the old exchanges and wait queues
 *       that the migration empties and unbinds, where nothing would take them. Apply refuses before changing
 *       anything, naming the queues and their consumers.
 *   <li>The spec's topology goes up beside the old one, as {@code apply --migrate} puts it up: a work queue the spec
 *       keeps, whose arguments would win over the spec's policies, is declared anew with its messages and its
 *       bindings, old ones included.
 *   <li>Exchange-to-exchange bindings carry what publishers send to an old exchange on to the spec's. A queue
 *       reached both ways takes one copy of a message, so the old binding can stay until the end.
 *   <li>The messages of the old wait and failed queues (and of a work queue the spec does not keep) move into the
 *       spec's tier queues and parking lot, each with its attempts in the runtime's headers ({@link AdoptedHeaders}).
 *       A moved message waits the tier's whole delay again: the time it had left in the old wait queue is not kept.
 *   <li>The messages of a work queue the spec keeps go through its temporary queue and back, to take the same
 *       headers.
 *   <li>The old bindings go, once every old wait queue is empty: a wait queue that still held messages would
 *       dead-letter them along a path with no queue at its end, and RabbitMQ drops such messages.
 *   <li>With {@code deleteOld}, the old queues go once empty and unused, then the old exchanges no binding uses,
 *       then the old policies.
 * </ol>
 * A message moved twice by an interrupted run keeps the headers of its first move: at least once, never lost.
 */
public final class AdoptionMigration {

    /** How long a kept work queue's temporary queue may take to empty. */
    private static final int EMPTYING_ATTEMPTS = 20;

    private final BrokerAccess access;
    private final ManagementApi api;
    private final RetrySpec spec;
    private final AdoptionRecord record;
    private final Clock clock;

    private AdoptionMigration(BrokerAccess access, RetrySpec spec, AdoptionRecord record, Clock clock) {
        this.access = access;
        this.api = access.managementApi();
        this.spec = spec;
        this.record = record;
        this.clock = clock;
    }

    /**
     * The migration of the spec's virtual host as the record says.
     *
     * @throws IllegalArgumentException if the record lists problems (a topology understood half-way is never
     *     migrated), adopts another virtual host, or names services, queues or tiers the spec does not have (the
     *     draft was changed after it was adopted: adopt again)
     */
    public static AdoptionMigration of(BrokerAccess access, RetrySpec spec, AdoptionRecord record) {
        requireNonNull(access, "access");
        requireNonNull(spec, "spec");
        requireNonNull(record, "record");
        check(spec, record);
        return new AdoptionMigration(access, spec, record, Clock.systemUTC());
    }

    private static void check(RetrySpec spec, AdoptionRecord record) {
        if (!record.problems().isEmpty()) {
            throw new IllegalArgumentException("the adoption record lists " + record.problems().size()
                    + " problem(s), and a topology understood half-way is never migrated: "
                    + record.problems().stream().map(Object::toString).collect(Collectors.joining("; ")));
        }
        if (!record.vhost().equals(spec.vhost())) {
            throw new IllegalArgumentException("the adoption record is of virtual host '" + record.vhost()
                    + "', and the spec's is '" + spec.vhost() + "'");
        }
        Set<String> queues = new HashSet<>();
        Topology.of(spec).queues().forEach(queue -> queues.add(queue.name()));
        List<String> missing = new ArrayList<>();
        for (ServiceRecord service : record.services()) {
            Optional<Service> specified = spec.services().stream()
                    .filter(candidate -> candidate.name().equals(service.service())).findFirst();
            if (specified.isEmpty() || !specified.get().queue().equals(service.queue())) {
                missing.add("service '" + service.service() + "' consuming " + service.queue());
            }
        }
        for (OldQueue queue : record.queues()) {
            destinations(queue).stream().filter(name -> !queues.contains(name))
                    .forEach(name -> missing.add("queue " + name + " for the messages of " + queue.queue()));
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("the spec has no " + String.join(", no ", missing) + ", which the "
                    + "adoption record moves messages to: was the draft changed after it was adopted? Adopt again, or "
                    + "change the spec back");
        }
    }

    /** The queues an old queue's messages may go to. */
    private static List<String> destinations(OldQueue queue) {
        Destination destination = queue.destination();
        if (destination instanceof Destination.ServiceQueue service) {
            return List.of(service.queue());
        }
        if (destination instanceof Destination.TierQueue tier) {
            return List.of(tier.queue());
        }
        if (destination instanceof Destination.TierByDelay byDelay) {
            return byDelay.tiers().stream().map(Tier::queue).toList();
        }
        return List.of(((Destination.ParkingLot) destination).queue());
    }

    /** The steps, with the messages counted as they are now; changes nothing. */
    public List<AdoptionStep> plan() throws IOException {
        return new Reading().steps(false);
    }

    /**
     * Takes the steps, telling {@code progress} each as it goes, and returns them as they then stand.
     *
     * @param deleteOld whether to delete the old queues, exchanges and policies, once empty and unused
     * @throws IOException if an old queue has a consumer (before anything changed), or the broker refuses a step;
     *     what was done until then stays done, and running it again carries on
     */
    public List<AdoptionStep> apply(boolean deleteOld, Consumer<String> progress) throws IOException {
        Reading before = new Reading();
        before.requireNoConsumers();
        TopologyPlanner.of(access).apply(spec, new ApplyOptions(false, true), progress);
        try (Connection connection = access.connect(spec.vhost(), "retry-adopt")) {
            Channel channel = connection.createChannel();
            for (OldBinding bridge : record.exchange().bridge()) {
                channel.exchangeBind(bridge.destination(), bridge.source(), bridge.routingKey(), bridge.arguments());
                progress.accept("bridge " + bridge.describe() + ": done");
            }
            MessageMover mover = MessageMover.of(connection);
            for (OldQueue queue : record.queues()) {
                if (!kept(queue)) {
                    move(mover, queue, progress);
                }
            }
            for (OldQueue queue : record.queues()) {
                if (kept(queue)) {
                    rewrite(mover, connection, queue, progress);
                }
            }
            Reading moved = new Reading();
            List<String> waiting = moved.waitingQueues();
            if (waiting.isEmpty()) {
                for (OldBinding binding : record.replaced().bindings()) {
                    unbind(connection, binding);
                    progress.accept("unbind " + binding.describe() + ": done");
                }
            } else {
                progress.accept("the old bindings are kept: " + String.join(", ", waiting) + " still hold messages");
            }
            if (deleteOld && waiting.isEmpty()) {
                deleteOld(connection, progress);
            }
        }
        return new Reading().steps(deleteOld);
    }

    /** Whether the spec keeps this old queue as a service's queue: its messages stay, their headers rewritten. */
    private static boolean kept(OldQueue queue) {
        return queue.destination() instanceof Destination.ServiceQueue service && service.queue().equals(queue.queue());
    }

    private void move(MessageMover mover, OldQueue queue, Consumer<String> progress) throws IOException {
        MoveReport report = mover.move(queue.queue(), destinationsOf(queue),
                new AdoptedHeaders(queue, spec.exchange(), clock), MoveOptions.defaults());
        progress.accept("move " + queue.queue() + " to " + report.destination() + ": " + report.moved() + " moved"
                + (report.left() > 0 ? ", " + report.left() + " arrived meanwhile and wait for the next run" : ""));
    }

    private static Destinations destinationsOf(OldQueue queue) {
        if (queue.destination() instanceof Destination.TierByDelay byDelay) {
            return new ByDelay(byDelay.tiers());
        }
        return Destinations.of(destinations(queue).get(0));
    }

    /**
     * Gives the messages of a kept work queue the runtime's headers: as many as it holds now go to its temporary
     * queue with them, and come back as they are.
     */
    private void rewrite(MessageMover mover, Connection connection, OldQueue queue, Consumer<String> progress)
            throws IOException {
        String temporary = Names.migrationQueue(queue.queue());
        Channel channel = connection.createChannel();
        channel.queueDeclare(temporary, true, false, false, Map.of());
        long held = channel.queueDeclarePassive(queue.queue()).getMessageCount();
        MoveReport out = mover.move(queue.queue(), temporary, new AdoptedHeaders(queue, spec.exchange(), clock),
                MoveOptions.defaults().limit(held).expiration(MoveOptions.Expiration.KEEP));
        long back = 0;
        for (int attempt = 0; attempt < EMPTYING_ATTEMPTS; attempt++) {
            back += mover.move(temporary, queue.queue(), HeaderRewrite.asDelivered(),
                    MoveOptions.defaults().expiration(MoveOptions.Expiration.KEEP)).moved();
            try {
                channel.queueDelete(temporary, true, true);
                closeQuietly(channel);
                progress.accept("rewrite " + queue.queue() + ": " + out.moved() + " message(s) given their attempts ("
                        + back + " back through " + temporary + ")");
                return;
            } catch (IOException notYet) {
                channel = connection.createChannel(); // something arrived, or a reader is still counted: again
            }
        }
        throw new IOException(temporary + " kept receiving messages; its messages and " + queue.queue() + "'s are "
                + "safe in the two: run apply --adoption again");
    }

    private static void unbind(Connection connection, OldBinding binding) throws IOException {
        Channel channel = connection.createChannel();
        try {
            if ("exchange".equals(binding.destinationType())) {
                channel.exchangeUnbind(binding.destination(), binding.source(), binding.routingKey(),
                        binding.arguments());
            } else {
                channel.queueUnbind(binding.destination(), binding.source(), binding.routingKey(), binding.arguments());
            }
        } catch (IOException gone) {
            // An exchange or queue of the binding is gone, and the binding with it.
        } finally {
            closeQuietly(channel);
        }
    }

    private void deleteOld(Connection connection, Consumer<String> progress) throws IOException {
        for (String queue : record.replaced().queues()) {
            Channel channel = connection.createChannel();
            try {
                AMQP.Queue.DeclareOk state = Migration.withoutOwnReads(channel, queue);
                if (state.getMessageCount() > 0 || state.getConsumerCount() > 0) {
                    progress.accept("delete queue " + queue + ": kept, it holds " + state.getMessageCount()
                            + " message(s) and has " + state.getConsumerCount() + " consumer(s)");
                    continue;
                }
                channel.queueDelete(queue);
                progress.accept("delete queue " + queue + ": done");
            } catch (IOException gone) {
                progress.accept("delete queue " + queue + ": gone already");
            } finally {
                closeQuietly(channel);
            }
        }
        for (AdoptionRecord.OldExchange exchange : record.replaced().exchanges()) {
            Channel channel = connection.createChannel();
            try {
                channel.exchangeDelete(exchange.name(), true);
                progress.accept("delete exchange " + exchange.name() + ": done");
            } catch (IOException inUse) {
                progress.accept("delete exchange " + exchange.name() + ": kept, a binding still uses it, or it is gone");
            } finally {
                closeQuietly(channel);
            }
        }
        for (String policy : record.replaced().policies()) {
            try {
                api.deletePolicy(spec.vhost(), policy);
                progress.accept("delete policy " + policy + ": done");
            } catch (ManagementApiException e) {
                if (e.status() != 404) {
                    throw e;
                }
            }
        }
    }

    private static void closeQuietly(Channel channel) {
        try {
            if (channel.isOpen()) {
                channel.close();
            }
        } catch (IOException | TimeoutException e) {
            // closing is all that is left to do with it
        }
    }

    /** The tier whose delay fits what a message had to wait: the first that waits as long, else the longest. */
    private record ByDelay(List<Tier> tiers) implements Destinations {

        @Override
        public List<String> queues() {
            return tiers.stream().map(Tier::queue).toList();
        }

        @Override
        public String choose(AMQP.BasicProperties properties, @Nullable Map<String, Object> headers) {
            Optional<Duration> wait = delay(properties);
            if (wait.isEmpty()) {
                int tier = headers == null ? 1 : Header.ATTEMPTS.in(headers).map(Number::intValue).orElse(1);
                return tiers.get(Math.max(1, Math.min(tier, tiers.size())) - 1).queue();
            }
            return tiers.stream().filter(tier -> tier.delay().compareTo(wait.get()) >= 0).findFirst()
                    .orElse(tiers.get(tiers.size() - 1)).queue();
        }

        /** The per-message TTL its publisher set: its expiration, or where dead-lettering kept it. */
        private static Optional<Duration> delay(AMQP.BasicProperties properties) {
            Optional<String> expiration = Optional.ofNullable(properties.getExpiration());
            if (expiration.isEmpty() && properties.getHeaders() != null
                    && properties.getHeaders().get(Header.X_DEATH.name()) instanceof List<?> deaths && !deaths.isEmpty()
                    && deaths.get(0) instanceof Map<?, ?> last
                    && last.get(DeathField.ORIGINAL_EXPIRATION.name()) != null) {
                expiration = Optional.of(last.get(DeathField.ORIGINAL_EXPIRATION.name()).toString());
            }
            try {
                return expiration.map(millis -> Duration.ofMillis(Long.parseLong(millis)));
            } catch (NumberFormatException unreadable) {
                return Optional.empty();
            }
        }
    }

    /** The virtual host as one reading finds it: its queues counted live, its bindings, exchanges and policies. */
    private final class Reading {

        private final Map<String, LiveCounts.Count> counts;
        private final Set<String> bindings = new HashSet<>();
        private final Set<String> exchanges = new HashSet<>();
        private final Set<String> policies = new HashSet<>();

        Reading() throws IOException {
            List<String> queues = new ArrayList<>();
            record.queues().forEach(queue -> queues.add(queue.queue()));
            record.queues().stream().filter(AdoptionMigration::kept)
                    .forEach(queue -> queues.add(Names.migrationQueue(queue.queue())));
            queues.addAll(record.replaced().queues());
            counts = LiveCounts.read(access, spec.vhost(), queues.stream().distinct().toList());
            for (BindingInfo binding : api.bindings(spec.vhost())) {
                bindings.add(key(binding.getSource(), binding.getDestination(),
                        binding.getDestinationType() == DestinationType.EXCHANGE ? "exchange" : "queue",
                        binding.getRoutingKey()));
            }
            exchanges.addAll(api.exchangeNames(spec.vhost()));
            api.policies(spec.vhost()).forEach(policy -> policies.add(policy.getName()));
        }

        private static String key(String source, String destination, String type, String routingKey) {
            return source + "\u0000" + destination + "\u0000" + type + "\u0000" + routingKey;
        }

        private boolean bound(OldBinding binding) {
            return bindings.contains(key(binding.source(), binding.destination(), binding.destinationType(),
                    binding.routingKey()));
        }

        /** The old queues that have consumers, with how many. */
        Map<String, Long> consumed() {
            Map<String, Long> consumed = new LinkedHashMap<>();
            for (OldQueue queue : record.queues()) {
                LiveCounts.Count count = counts.get(queue.queue());
                if (count != null && count.consumers() > 0) {
                    consumed.put(queue.queue(), count.consumers());
                }
            }
            return consumed;
        }

        void requireNoConsumers() throws IOException {
            Map<String, Long> consumed = consumed();
            if (!consumed.isEmpty()) {
                throw new IOException(consumedSentence(consumed) + "; nothing was changed");
            }
        }

        /** The old wait queues that still hold messages. */
        List<String> waitingQueues() {
            return record.queues().stream()
                    .filter(queue -> queue.role() == Role.WAIT)
                    .map(OldQueue::queue)
                    .filter(queue -> counts.containsKey(queue) && counts.get(queue).ready() > 0)
                    .toList();
        }

        List<AdoptionStep> steps(boolean deleteOld) {
            List<AdoptionStep> steps = new ArrayList<>();
            Map<String, Long> consumed = consumed();
            steps.add(new AdoptionStep(Action.CHECK_CONSUMERS, "the old queues", consumed.isEmpty()
                    ? "none has a consumer" : consumedSentence(consumed), OptionalLong.empty(),
                    consumed.isEmpty() ? State.DONE : State.BLOCKED));
            for (OldBinding bridge : record.exchange().bridge()) {
                steps.add(new AdoptionStep(Action.BRIDGE, bridge.describe(), "publishers to " + bridge.source()
                        + " reach the spec's exchange", OptionalLong.empty(), bound(bridge) ? State.DONE : State.TO_DO));
            }
            for (OldQueue queue : record.queues()) {
                if (kept(queue)) {
                    continue;
                }
                OptionalLong messages = ready(queue.queue());
                steps.add(new AdoptionStep(Action.MOVE, queue.queue(), "to " + destinationsOf(queue).describe()
                        + attemptsClause(queue), messages, messages.orElse(0) > 0 ? State.TO_DO : State.DONE));
            }
            boolean unbound = record.replaced().bindings().stream().noneMatch(this::bound);
            for (OldQueue queue : record.queues()) {
                if (!kept(queue)) {
                    continue;
                }
                String temporary = Names.migrationQueue(queue.queue());
                boolean halfWay = counts.containsKey(temporary);
                OptionalLong messages = ready(queue.queue());
                steps.add(new AdoptionStep(Action.REWRITE, queue.queue(), "through " + temporary + " and back"
                        + attemptsClause(queue) + (halfWay ? "; " + temporary + " holds "
                        + counts.get(temporary).ready() + " from an interrupted run" : ""), messages,
                        unbound && !halfWay ? State.DONE : State.TO_DO));
            }
            List<String> waiting = waitingQueues();
            for (OldBinding binding : record.replaced().bindings()) {
                State state = !bound(binding) ? State.DONE : State.TO_DO;
                steps.add(new AdoptionStep(Action.UNBIND, binding.describe(), waiting.isEmpty() || state == State.DONE
                        ? "the spec's topology replaces it" : "once " + String.join(", ", waiting) + " are empty",
                        OptionalLong.empty(), state));
            }
            for (String queue : record.replaced().queues()) {
                steps.add(deletion("queue " + queue, counts.containsKey(queue), deleteOld, ready(queue)));
            }
            for (AdoptionRecord.OldExchange exchange : record.replaced().exchanges()) {
                steps.add(deletion("exchange " + exchange.name(), exchanges.contains(exchange.name()), deleteOld,
                        OptionalLong.empty()));
            }
            for (String policy : record.replaced().policies()) {
                steps.add(deletion("policy " + policy, policies.contains(policy), deleteOld, OptionalLong.empty()));
            }
            return steps;
        }

        private AdoptionStep deletion(String object, boolean present, boolean deleteOld, OptionalLong messages) {
            if (!present) {
                return new AdoptionStep(Action.DELETE, object, "gone", OptionalLong.empty(), State.DONE);
            }
            return new AdoptionStep(Action.DELETE, object, deleteOld ? "once empty and unused"
                    : "kept until apply --adoption --delete-old", messages, deleteOld ? State.TO_DO : State.LEFT);
        }

        private OptionalLong ready(String queue) {
            LiveCounts.Count count = counts.get(queue);
            return count == null ? OptionalLong.empty() : OptionalLong.of(count.ready());
        }
    }

    private static String consumedSentence(Map<String, Long> consumed) {
        return "old queues have consumers (" + consumed.entrySet().stream()
                .map(entry -> entry.getKey() + ": " + entry.getValue()).collect(Collectors.joining(", "))
                + "): stop the old consumers first. Their retries would go through the old exchanges and wait queues, "
                + "which the migration empties and unbinds; start the spec's consumers once it is done";
    }

    private static String attemptsClause(OldQueue queue) {
        AdoptionRecord.AttemptCount attempts = queue.attempts();
        if (attempts instanceof AdoptionRecord.AttemptCount.XDeath death) {
            return ", attempts from x-death (" + death.reason() + " from " + String.join(", ", death.queues())
                    + (death.plus() > 0 ? ", plus " + death.plus() : "") + ")";
        }
        if (attempts instanceof AdoptionRecord.AttemptCount.Header header) {
            return ", attempts from header " + header.name();
        }
        return ", attempts unknown (" + ((AdoptionRecord.AttemptCount.Unknown) attempts).reason() + ")"
                + (queue.role() == Role.WORK ? "" : ": counted as 1");
    }
}
