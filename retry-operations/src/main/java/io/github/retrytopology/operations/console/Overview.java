package io.github.retrytopology.operations.console;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.Tier;
import io.github.retrytopology.model.decision.Durations;
import io.github.retrytopology.model.internal.PolicyText;
import io.github.retrytopology.operations.broker.BrokerAccess;
import io.github.retrytopology.operations.broker.ManagementApiException;
import io.github.retrytopology.operations.broker.QueueStatistics;
import io.github.retrytopology.operations.internal.BrokerMessages;
import io.github.retrytopology.operations.plan.Plan;
import io.github.retrytopology.operations.plan.PlanEntry;
import io.github.retrytopology.operations.plan.PlanTable;
import io.github.retrytopology.operations.plan.TopologyPlanner;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The console's first page: every service of the spec with its queues, delays and parking lot, how many messages
 * each holds and how fast they move, and whether the broker holds the topology the spec wants.
 *
 * <p>Depths and rates come from the management API, in one request for the whole virtual host. Without it, the
 * depths come from AMQP, one queue at a time, and there are no rates. The plan is read in the background at most
 * every {@link #PLAN_EVERY}: it takes several requests, and up to twelve seconds when the broker's statistics must be
 * read again.
 */
final class Overview {

    static final Duration PLAN_EVERY = Duration.ofSeconds(30);
    private static final List<String> COLUMNS = List.of("name", "messages_ready", "messages_unacknowledged",
            "messages", "consumers", "message_stats.publish_details.rate", "message_stats.deliver_get_details.rate",
            "message_stats.ack_details.rate");

    private final RetrySpec spec;
    private final BrokerAccess access;
    private final AmqpConnection amqp;
    private final LongSupplier ticker;
    private final ExecutorService planner;
    private Drift drift = new Drift("reading", 0, List.of(), null);
    private long plannedAt;
    private boolean planning;

    Overview(RetrySpec spec, BrokerAccess access, AmqpConnection amqp, LongSupplier ticker) {
        this.spec = spec;
        this.access = access;
        this.amqp = amqp;
        this.ticker = ticker;
        this.planner = Executors.newSingleThreadExecutor(work -> {
            Thread thread = new Thread(work, "retry-console-plan");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** The page's data. */
    record Page(Management management, Drift drift, List<ServiceView> services) {
    }

    /** Whether the management API answered, and if not, what it said. */
    record Management(boolean available, @Nullable String error) {
    }

    /**
     * The plan in short, with a line per object that differs: {@code reading} until the first reading ends, then
     * {@code in-sync}, {@code drift}, or {@code unknown} with the error that kept it from being read.
     */
    record Drift(String state, int changes, List<String> lines, String error) {
    }

    record ServiceView(String name, String queue, String parkingLot, int maxAttempts, List<String> routingKeys,
            String delays, String policy, Depth queueDepth, @Nullable Long parked, List<TierView> tiers,
            @Nullable Rates rates) {
    }

    record Depth(@Nullable Long ready, @Nullable Long unacked, @Nullable Long consumers) {
    }

    record TierView(String queue, String delay, @Nullable Long messages) {
    }

    /** Messages a second, as the management API counts them. */
    record Rates(@Nullable Double published, @Nullable Double delivered, @Nullable Double acknowledged) {
    }

    Page read() {
        refreshPlan();
        Map<String, QueueStatistics> queues;
        Management management;
        try {
            queues = managementQueues();
            management = new Management(true, null);
        } catch (ManagementApiException e) {
            queues = null;
            management = new Management(false, (e.status() == 404
                    ? "the management API knows no virtual host '" + spec.vhost() + "'"
                    : "the management API refused to list the queues (" + BrokerMessages.of(e) + ")")
                    + ": depths are read over AMQP, and there are no rates");
        } catch (IOException | RuntimeException e) {
            queues = null;
            management = new Management(false, "the management API did not answer (" + BrokerMessages.of(e)
                    + "): depths are read over AMQP, and there are no rates");
        }
        List<ServiceView> services = new ArrayList<>();
        Map<String, long[]> amqpDepths = queues == null ? amqpDepths() : Map.of();
        for (Service service : spec.services()) {
            services.add(view(service, queues, amqpDepths));
        }
        synchronized (this) {
            return new Page(management, drift, services);
        }
    }

    private ServiceView view(Service service, @Nullable Map<String, QueueStatistics> queues,
            Map<String, long[]> amqpDepths) {
        List<TierView> tiers = new ArrayList<>();
        for (Tier tier : service.tiers()) {
            tiers.add(new TierView(tier.queue(), Durations.format(tier.delay()),
                    messages(tier.queue(), queues, amqpDepths)));
        }
        Depth depth;
        Rates rates = null;
        if (queues != null) {
            QueueStatistics queue = queues.get(service.queue());
            depth = queue == null ? new Depth(null, null, null)
                    : new Depth(queue.ready(), queue.unacknowledged(), queue.consumers());
            if (queue != null) {
                rates = new Rates(queue.publishRate(), queue.deliverRate(), queue.ackRate());
            }
        } else {
            long[] read = amqpDepths.get(service.queue());
            depth = read == null ? new Depth(null, null, null) : new Depth(read[0], null, read[1]);
        }
        return new ServiceView(service.name(), service.queue(), service.parkingLot(),
                service.retryPolicy().maxAttempts(), service.routes().stream().map(route -> route.key().value()).toList(),
                PolicyText.delays(service), PolicyText.describe(service), depth,
                messages(service.parkingLot(), queues, amqpDepths), tiers, rates);
    }

    private static @Nullable Long messages(String queue, @Nullable Map<String, QueueStatistics> queues,
            Map<String, long[]> amqpDepths) {
        if (queues != null) {
            QueueStatistics read = queues.get(queue);
            return read == null ? null : read.messages();
        }
        long[] read = amqpDepths.get(queue);
        return read == null ? null : read[0];
    }

    private Map<String, QueueStatistics> managementQueues() throws IOException {
        Map<String, QueueStatistics> queues = new HashMap<>();
        for (QueueStatistics queue : access.managementApi().queueStatistics(spec.vhost(), COLUMNS)) {
            queues.put(queue.name(), queue);
        }
        return queues;
    }

    /** Each queue's ready messages and consumers, over AMQP; a queue that does not exist is left out. */
    private Map<String, long[]> amqpDepths() {
        Map<String, long[]> depths = new HashMap<>();
        try {
            Connection connection = amqp.get();
            Channel channel = connection.createChannel();
            for (Service service : spec.services()) {
                List<String> names = new ArrayList<>(List.of(service.queue(), service.parkingLot()));
                service.tiers().forEach(tier -> names.add(tier.queue()));
                for (String name : names) {
                    try {
                        var ok = channel.queueDeclarePassive(name);
                        depths.put(name, new long[] {ok.getMessageCount(), ok.getConsumerCount()});
                    } catch (IOException missing) {
                        channel = connection.createChannel(); // the broker closed the other one
                    }
                }
            }
            if (channel.isOpen()) {
                channel.abort();
            }
        } catch (IOException e) {
            // the page shows unknown depths
        }
        return depths;
    }

    /** Reads the plan again in the background if the last reading is older than {@link #PLAN_EVERY}. */
    private synchronized void refreshPlan() {
        if (planning || (plannedAt != 0 && ticker.getAsLong() - plannedAt < PLAN_EVERY.toNanos())) {
            return;
        }
        planning = true;
        planner.execute(() -> {
            Drift read;
            try {
                Plan plan = TopologyPlanner.of(access).plan(spec);
                List<PlanEntry> differing = plan.drift();
                List<String> lines = plan.inSync() ? List.of() : PlanTable.lines(plan);
                read = new Drift(plan.inSync() ? "in-sync" : "drift", differing.size(), lines, null);
            } catch (IOException | RuntimeException e) {
                read = new Drift("unknown", 0, List.of(), "the plan could not be read: " + BrokerMessages.of(e));
            }
            synchronized (this) {
                drift = read;
                plannedAt = ticker.getAsLong();
                planning = false;
            }
        });
    }

    void close() {
        planner.shutdownNow();
    }
}
