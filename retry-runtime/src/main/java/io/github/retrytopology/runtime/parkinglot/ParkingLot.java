package io.github.retrytopology.runtime.parkinglot;

import static java.util.Objects.requireNonNull;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.AlreadyClosedException;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.RetryRuntimeException;
import io.github.retrytopology.runtime.amqp091.Republishing;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * The parking lot of one service: list what waits there, replay it to the service, or purge it.
 *
 * <p>Replayed messages go to the service's own queue, never through the shared exchange, so that other
 * services bound to the same routing key do not receive them again. Their attempt count and failure headers
 * are reset; their original routing key is kept, so that the same handler takes them. Each is acknowledged in
 * the parking lot only once the broker has confirmed it in the service's queue: a replay interrupted half-way
 * loses nothing, and may at worst leave a message in both places.
 *
 * <p>Listing reads messages without taking them: they return to the parking lot, which counts a delivery of
 * each (quorum parking lots have a delivery limit high enough for that never to matter).
 *
 * <p>Twins, two copies of one message parked at the same attempt (a lost confirm or acknowledgement made the
 * second; see {@link ParkedMessage#twinKey()}), are listed once, and a replay sends one copy and drops the others.
 */
public final class ParkingLot {

    private static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration RETURN_WAIT = Duration.ofSeconds(2);

    private final Connection connection;
    private final Service service;
    private final Clock clock;
    /** The monotonic clock of the waits, in nanoseconds. */
    private final LongSupplier ticker;

    private ParkingLot(Connection connection, Service service, Clock clock, LongSupplier ticker) {
        this.connection = connection;
        this.service = service;
        this.clock = clock;
        this.ticker = ticker;
    }

    /** The parking lot of a service, on a connection to the service's virtual host. */
    public static ParkingLot of(Connection connection, Service service) {
        return of(connection, service, Clock.systemUTC());
    }

    /** The same, with the clock that measures how long messages have been parked. */
    public static ParkingLot of(Connection connection, Service service, Clock clock) {
        return new ParkingLot(requireNonNull(connection, "connection"), requireNonNull(service, "service"),
                requireNonNull(clock, "clock"), System::nanoTime);
    }

    /** The parking lot's queue. */
    public String queue() {
        return service.parkingLot();
    }

    /** How many messages are parked, not counting those being read right now. */
    public long count() throws IOException {
        Channel channel = connection.createChannel();
        try {
            return channel.messageCount(queue());
        } finally {
            close(channel);
        }
    }

    /**
     * Returns up to {@code limit} parked messages, oldest first, leaving them parked; twins of one message count
     * once, as one message with its {@linkplain ParkedMessage#copies() copies} among those read. It reads no further
     * than the {@code limit}th message: a twin parked after that is not counted.
     */
    public List<ParkedMessage> list(int limit) throws IOException {
        Map<Object, ParkedMessage> messages = new LinkedHashMap<>();
        Channel channel = connection.createChannel();
        long read = 0;
        try {
            long parked = channel.messageCount(queue());
            while (read < parked && messages.size() < limit) {
                GetResponse response = channel.basicGet(queue(), false);
                if (response == null) {
                    break;
                }
                read++;
                ParkedMessage message = ParkedMessage.of(response);
                Object key = message.twinKey().<Object>map(twinKey -> twinKey).orElseGet(Object::new);
                ParkedMessage twin = messages.get(key);
                messages.put(key, twin == null ? message : twin.withCopies(twin.copies() + 1));
            }
        } finally {
            close(channel);
        }
        awaitReturned(read);
        return List.copyOf(messages.values());
    }

    /**
     * Reads the parking lot by failure, leaving every message parked: how many it holds of each
     * {@linkplain Failure failure}, and when the first and last of them were parked. It holds no body: a reading costs
     * the memory of its groups. It consumes the parking lot on as many channels as it needs, acknowledging nothing,
     * and closes them, which returns every message.
     *
     * <p>It reads at most {@code max} messages, and those parked when it begins; see {@link FailureGroups#complete()}.
     * Messages being replayed or read by someone else at the same time are not counted.
     */
    public FailureGroups groups(long max) throws IOException {
        return groups(max, ReplayFilter.all(), 0);
    }

    /**
     * The same, keeping in the same reading the first {@code limit} messages the filter takes, bodies and all: a group
     * and its messages in one reading.
     */
    public FailureGroups groups(long max, ReplayFilter filter, int limit) throws IOException {
        long began = ticker.getAsLong();
        Instant now = clock.instant();
        Map<Failure, Tally> tallies = new ConcurrentHashMap<>();
        Chosen chosen = new Chosen(limit);
        long parked = count();
        long scanned = ParkingLotReading.read(connection, queue(), max, ticker, message -> {
            tallies.computeIfAbsent(Failure.of(message), key -> new Tally()).add(message.parkedAt());
            if (limit > 0 && filter.matches(message, now)) {
                chosen.offer(message);
            }
            return true;
        });
        awaitReturned(scanned);
        List<FailureGroup> groups = new ArrayList<>();
        tallies.forEach((failure, tally) -> groups.add(tally.group(failure)));
        groups.sort(Comparator.comparingLong(FailureGroup::count).reversed()
                .thenComparing(group -> group.last().orElse(Instant.MIN), Comparator.reverseOrder())
                .thenComparing(FailureGroup::key));
        return new FailureGroups(parked, scanned, groups, chosen.oldestFirst(),
                Duration.ofNanos(ticker.getAsLong() - began));
    }

    /**
     * Returns up to {@code limit} parked messages that the filter takes, oldest first, leaving them parked; twins
     * count once, as in {@link #list(int)}. It reads the parking lot as {@link #groups} does, up to {@code max}
     * messages, and stops once it has found {@code limit}.
     */
    public List<ParkedMessage> list(ReplayFilter filter, int limit, long max) throws IOException {
        Instant now = clock.instant();
        Chosen chosen = new Chosen(limit);
        long read = ParkingLotReading.read(connection, queue(), max, ticker,
                message -> !filter.matches(message, now) || chosen.offer(message));
        awaitReturned(read);
        return chosen.oldestFirst();
    }

    /** The first messages a reading chose, up to a limit, twins of one message as one with its copies counted. */
    private static final class Chosen {
        private final int limit;
        private final Map<Object, ParkedMessage> messages = new LinkedHashMap<>();

        Chosen(int limit) {
            this.limit = limit;
        }

        /** Takes a message if there is room, or counts it as a twin; returns whether there is room for more. */
        synchronized boolean offer(ParkedMessage message) {
            Object key = message.twinKey().<Object>map(twinKey -> twinKey).orElseGet(Object::new);
            ParkedMessage twin = messages.get(key);
            if (twin != null || messages.size() < limit) {
                messages.put(key, twin == null ? message : twin.withCopies(twin.copies() + 1));
            }
            return messages.size() < limit;
        }

        synchronized List<ParkedMessage> oldestFirst() {
            List<ParkedMessage> chosen = new ArrayList<>(messages.values());
            chosen.sort(Comparator.comparing(message -> message.parkedAt().orElse(Instant.MAX)));
            return List.copyOf(chosen);
        }
    }

    /** A failure's parked messages so far: how many, and the earliest and latest park times. */
    private static final class Tally {
        private long count;
        private Instant first;
        private Instant last;

        synchronized void add(Optional<Instant> at) {
            count++;
            at.ifPresent(time -> {
                first = first == null || time.isBefore(first) ? time : first;
                last = last == null || time.isAfter(last) ? time : last;
            });
        }

        synchronized FailureGroup group(Failure failure) {
            return new FailureGroup(failure, count, Optional.ofNullable(first), Optional.ofNullable(last));
        }
    }

    /**
     * Waits, for a moment at most, until the parking lot counts the messages a listing gave back again: a quorum
     * queue takes them back a moment after the channel that read them closes, and a replay right after a listing
     * must see them.
     */
    private void awaitReturned(long read) throws IOException {
        long deadline = ticker.getAsLong() + RETURN_WAIT.toNanos();
        while (count() < read && ticker.getAsLong() - deadline < 0) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Replays up to {@code limit} parked messages that the filter takes to the service's queue. Messages parked
     * while the replay runs are not looked at, nor those after the {@code limit}th it takes.
     *
     * @param dryRun if true, replays nothing and reports what would be replayed
     */
    public ReplayReport replay(ReplayFilter filter, int limit, boolean dryRun) throws IOException {
        return replay(filter, ReplayOptions.limit(limit).dryRun(dryRun));
    }

    /**
     * Replays the parked messages that the filter takes to the service's queue, as the options say: at most so many,
     * at most so fast, in someone's name. Messages parked while the replay runs are not looked at, nor those after the
     * last it may take: a twin of a replayed message parked after it stays parked.
     */
    public ReplayReport replay(ReplayFilter filter, ReplayOptions options) throws IOException {
        int limit = options.limit();
        boolean dryRun = options.dryRun();
        Optional<Pace> pace = options.rate().isPresent() ? Optional.of(Pace.of(options.rate().getAsDouble(), ticker))
                : Optional.empty();
        Instant now = clock.instant();
        Channel channel = connection.createChannel();
        AtomicReference<String> returned = new AtomicReference<>();
        Map<String, Integer> previewed = new LinkedHashMap<>();
        List<ParkedMessage> preview = new ArrayList<>();
        Set<String> sent = new HashSet<>();
        int scanned = 0;
        int matched = 0;
        int replayed = 0;
        int twins = 0;
        ParkingLotCursor cursor;
        try {
            channel.addReturnListener(message -> returned.set(message.getReplyCode() + " " + message.getReplyText()));
            channel.confirmSelect();
            cursor = ParkingLotCursor.open(connection, queue(), channel.messageCount(queue()), ticker,
                    message -> filter.matches(message, now), ParkingLotCursor.BUDGET);
            // What it does not acknowledge goes back to the parking lot when the cursor closes.
            try (cursor) {
                // It reads no further than the limit's last message: a twin parked after it stays parked.
                while (matched < limit) {
                    options.progress().update(scanned, matched, replayed);
                    ParkingLotCursor.Delivery delivery = cursor.next();
                    if (delivery == null) {
                        break;
                    }
                    scanned++;
                    ParkedMessage message = delivery.message();
                    Optional<String> twinKey = message.twinKey();
                    if (twinKey.isPresent() && (sent.contains(twinKey.get()) || previewed.containsKey(twinKey.get()))) {
                        twins++;
                        if (dryRun) {
                            int index = previewed.get(twinKey.get());
                            preview.set(index, preview.get(index).withCopies(preview.get(index).copies() + 1));
                        } else {
                            delivery.acknowledge(); // its twin is back in the service's queue already
                        }
                        continue;
                    }
                    if (!delivery.wanted()) {
                        continue; // the filter does not take it: it has no body, and goes back with the cursor
                    }
                    matched++;
                    if (dryRun) {
                        twinKey.ifPresent(key -> previewed.put(key, preview.size()));
                        preview.add(message);
                        continue;
                    }
                    if (pace.isPresent()) {
                        await(pace.get());
                    }
                    AMQP.BasicProperties properties = Republishing.republish(message.properties(),
                            message.headers().forReplay(clock.instant(), options.replayedBy()));
                    channel.basicPublish(Topology.DEFAULT_EXCHANGE, service.queue(), true, properties, message.body());
                    awaitConfirm(channel);
                    if (returned.get() != null) {
                        throw new RetryRuntimeException("the broker returned a replayed message (" + returned.get()
                                + "); does queue " + service.queue() + " exist? It stays parked");
                    }
                    delivery.acknowledge();
                    twinKey.ifPresent(sent::add);
                    replayed++;
                    options.progress().update(scanned, matched, replayed);
                }
            }
        } finally {
            close(channel);
        }
        awaitReturned(cursor.returned());
        options.progress().update(scanned, matched, replayed);
        return new ReplayReport(scanned, matched, replayed, twins, dryRun, preview);
    }

    private static void await(Pace pace) throws IOException {
        try {
            pace.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while pacing a replay", e);
        }
    }

    /** Deletes every parked message for good; returns how many there were. */
    public long purge() throws IOException {
        Channel channel = connection.createChannel();
        try {
            return channel.queuePurge(queue()).getMessageCount();
        } finally {
            close(channel);
        }
    }

    private static void awaitConfirm(Channel channel) throws IOException {
        try {
            channel.waitForConfirmsOrDie(CONFIRM_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the broker to confirm a replayed message", e);
        } catch (TimeoutException e) {
            throw new IOException("the broker did not confirm a replayed message within " + CONFIRM_TIMEOUT, e);
        }
    }

    /** Closes a channel, which requeues what it holds unacknowledged; one the broker closed already is fine. */
    static void close(Channel channel) throws IOException {
        try {
            if (channel.isOpen()) {
                channel.close();
            }
        } catch (TimeoutException e) {
            throw new IOException("the channel did not close in time", e);
        } catch (AlreadyClosedException e) {
            // closed by the broker already: its messages are requeued
        }
    }
}
