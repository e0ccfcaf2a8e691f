package io.github.retrytopology.runtime.parkinglot;

import static java.util.Objects.requireNonNull;

import com.rabbitmq.client.Connection;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.runtime.RetryRuntimeException;
import io.github.retrytopology.runtime.amqp091.ParkingLotQueue;
import io.github.retrytopology.runtime.internal.HeaderWriter;
import io.github.retrytopology.runtime.internal.ParkedQueue;
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
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

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
 *
 * <p>What to read, replay and drop is decided here, in no protocol's terms; reading, taking and sending are the
 * protocol's. {@link #of(Connection, Service)} opens one over AMQP 0.9.1, through RabbitMQ's Java client.
 */
public final class ParkingLot {

    private static final Duration RETURN_WAIT = Duration.ofSeconds(2);

    private final ParkedQueue lot;
    private final Service service;
    private final Clock clock;
    /** The monotonic clock of the waits, in nanoseconds. */
    private final LongSupplier ticker;

    private ParkingLot(ParkedQueue lot, Service service, Clock clock, LongSupplier ticker) {
        this.lot = lot;
        this.service = service;
        this.clock = clock;
        this.ticker = ticker;
    }

    /** The parking lot of a service over AMQP 0.9.1, on a connection to the service's virtual host. */
    public static ParkingLot of(Connection connection, Service service) {
        return of(connection, service, Clock.systemUTC());
    }

    /** The same, with the clock that measures how long messages have been parked. */
    public static ParkingLot of(Connection connection, Service service, Clock clock) {
        requireNonNull(connection, "connection");
        requireNonNull(service, "service");
        LongSupplier ticker = System::nanoTime;
        return new ParkingLot(new ParkingLotQueue(connection, service.parkingLot(), ticker), service,
                requireNonNull(clock, "clock"), ticker);
    }

    /** The parking lot's queue. */
    public String queue() {
        return service.parkingLot();
    }

    /** How many messages are parked, not counting those being read right now. */
    public long count() throws IOException {
        return lot.count();
    }

    /**
     * Returns up to {@code limit} parked messages, oldest first, leaving them parked; twins of one message count
     * once, as one message with its {@linkplain ParkedMessage#copies() copies} among those read. It reads no further
     * than the {@code limit}th message: a twin parked after that is not counted.
     */
    public List<ParkedMessage> list(int limit) throws IOException {
        if (limit <= 0) {
            return List.of();
        }
        Map<Object, ParkedMessage> messages = new LinkedHashMap<>();
        long read = lot.readInOrder(one -> {
            ParkedMessage message = parked(one);
            Object key = message.twinKey().<Object>map(twinKey -> twinKey).orElseGet(Object::new);
            ParkedMessage twin = messages.get(key);
            messages.put(key, twin == null ? message : twin.withCopies(twin.copies() + 1));
            return messages.size() < limit;
        });
        awaitReturned(read);
        return List.copyOf(messages.values());
    }

    private static ParkedMessage parked(ParkedQueue.Message message) {
        return new ParkedMessage(message.properties(), message.body(), 1);
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
        long scanned = lot.scan(max, one -> {
            ParkedMessage message = parked(one);
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
        long read = lot.scan(max, message -> {
            ParkedMessage one = parked(message);
            return !filter.matches(one, now) || chosen.offer(one);
        });
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
        private @Nullable Instant first;
        private @Nullable Instant last;

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
        Map<String, Integer> previewed = new LinkedHashMap<>();
        List<ParkedMessage> preview = new ArrayList<>();
        Set<String> sent = new HashSet<>();
        int scanned = 0;
        int matched = 0;
        int replayed = 0;
        int twins = 0;
        // What it does not acknowledge goes back to the parking lot when the replay closes.
        ParkedQueue.Replay replay = lot.replay(message -> filter.matches(parked(message), now));
        try (replay) {
            // It reads no further than the limit's last message: a twin parked after it stays parked.
            while (matched < limit) {
                options.progress().update(scanned, matched, replayed);
                ParkedQueue.Delivery delivery = replay.next();
                if (delivery == null) {
                    break;
                }
                scanned++;
                ParkedMessage message = parked(delivery.message());
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
                    continue; // the filter does not take it: it has no body, and goes back with the replay
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
                Map<String, Object> headers = HeaderWriter.forReplay(message.headers(), clock.instant(),
                        options.replayedBy());
                Optional<String> returned = replay.send(delivery, headers, service.queue());
                if (returned.isPresent()) {
                    throw new RetryRuntimeException("the broker returned a replayed message (" + returned.get()
                            + "); does queue " + service.queue() + " exist? It stays parked");
                }
                delivery.acknowledge();
                twinKey.ifPresent(sent::add);
                replayed++;
                options.progress().update(scanned, matched, replayed);
            }
        }
        awaitReturned(replay.returned());
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
        return lot.purge();
    }
}
