package io.github.retrytopology.it.chaos;

import com.rabbitmq.client.Connection;
import io.github.retrytopology.model.decision.ParkReason;
import io.github.retrytopology.runtime.parkinglot.ParkedMessage;
import io.github.retrytopology.runtime.parkinglot.ParkingLot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Accounts for every message of a chaos run: which succeeded (and how often), which are parked (and why, and in
 * how many copies), and so which were lost, parked before their attempts were spent, or handled twice.
 */
final class Tally implements ChaosWorker.Successes {

    private final Workload workload;
    private final WorkService service;
    private final Map<String, AtomicInteger> successes = new ConcurrentHashMap<>();

    Tally(Workload workload, WorkService service) {
        this.workload = workload;
        this.service = service;
    }

    @Override
    public void succeeded(String id, int attempt) {
        successes.computeIfAbsent(id, ignored -> new AtomicInteger()).incrementAndGet();
    }

    /** How many messages have succeeded. */
    int successes() {
        return successes.size();
    }

    /** Takes the successes that worker processes wrote to a file, one {@code id attempt} line each, anew. */
    void readSuccessesAgain(Path file) throws IOException {
        successes.clear();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            // A worker killed in the middle of a write leaves half a line; its message is handled again anyway.
            if (line.matches("\\S+ \\d+")) {
                succeeded(line.substring(0, line.indexOf(' ')), Integer.parseInt(line.substring(line.indexOf(' ') + 1)));
            }
        }
    }

    /** Whether every message has succeeded or is parked. */
    boolean settled(Connection connection) throws IOException {
        Set<String> accounted = new HashSet<>(successes.keySet());
        accounted.addAll(parked(connection).keySet());
        return accounted.containsAll(workload.ids);
    }

    /** The parked messages by id, as a person listing the parking lot sees them: twins as one, with copies. */
    Map<String, List<ParkedMessage>> parked(Connection connection) throws IOException {
        Map<String, List<ParkedMessage>> parked = new HashMap<>();
        for (ParkedMessage message : ParkingLot.of(connection, service.service).list(Integer.MAX_VALUE)) {
            String id = Optional.ofNullable(message.properties().messageId()).orElse("?");
            parked.computeIfAbsent(id, ignored -> new ArrayList<>()).add(message);
        }
        return parked;
    }

    /** The run's row of the table. */
    Row row(String scenario, Connection connection, Duration took, String notes) throws IOException {
        Map<String, List<ParkedMessage>> parked = parked(connection);
        int lost = 0;
        int parkedEarly = 0;
        int parkedAfterCrashes = 0;
        int duplicates = 0;
        List<String> early = new ArrayList<>();
        for (String id : workload.ids) {
            int succeeded = successes.getOrDefault(id, new AtomicInteger()).get();
            List<ParkedMessage> parking = parked.getOrDefault(id, List.of());
            int copies = parking.stream().mapToInt(ParkedMessage::copies).sum();
            if (succeeded == 0 && copies == 0) {
                lost++;
            }
            duplicates += Math.max(0, succeeded - 1) + Math.max(0, copies - 1);
            if (!parking.stream().allMatch(message -> parkedRightly(id, message))) {
                parkedEarly++;
                parking.forEach(message -> early.add(id + " (" + message.detail() + "; delivered "
                        + message.headers().deliveryCount() + " time(s) before, " + succeeded + " success(es))"));
            } else if (!parking.isEmpty() && Workload.failures(id) != Workload.NEVER) {
                parkedAfterCrashes++;
            }
        }
        int parkedIds = (int) workload.ids.stream().filter(parked::containsKey).count();
        String counted = parkedAfterCrashes == 0 ? notes : notes + "; " + parkedAfterCrashes + " parked after crashes "
                + "and lost connections counted as attempts";
        if (!early.isEmpty()) {
            counted += "; parked early: " + String.join(", ", early.subList(0, Math.min(early.size(), 5)));
        }
        return new Row(scenario, workload.ids.size(), successes.size(), parkedIds, lost, parkedEarly, duplicates,
                took, counted);
    }

    /**
     * Whether a message belongs in the parking lot, for the reason it is there: a message that fails every
     * time after its last attempt, a poison message by the broker's delivery limit. Where the broker delays
     * retries (with {@code delayBy: broker}, and for every service consumed over AMQP 1.0) it counts a delivery that
     * ended in a crash or a lost connection as a failed attempt, as RabbitMQ 4.3 counts it: there any message may be
     * parked once its attempts so counted are spent, by the consumer after its last one failed or by the broker
     * after its last one crashed, and never before.
     */
    private boolean parkedRightly(String id, ParkedMessage parked) {
        int maxAttempts = service.service.retryPolicy().maxAttempts();
        boolean lastFailed = parked.reason().filter(ParkReason.ATTEMPTS_EXHAUSTED::equals).isPresent()
                && parked.attempts() == maxAttempts;
        boolean lastCrashed = parked.reason().filter(ParkReason.DELIVERY_LIMIT::equals).isPresent();
        if (service.brokerCounts()) {
            return Workload.isPoison(id) ? lastCrashed : lastFailed || lastCrashed;
        }
        if (Workload.isPoison(id)) {
            return lastCrashed;
        }
        return Workload.failures(id) == Workload.NEVER && lastFailed;
    }

    /** One line of the chaos table. */
    record Row(String scenario, int published, int succeeded, int parked, int lost, int parkedEarly, int duplicates,
            Duration took, String notes) {

        static final String HEADER = "| scenario | published | succeeded | parked | lost | parked early | duplicates "
                + "| took | notes |\n|---|---|---|---|---|---|---|---|---|";

        @Override
        public String toString() {
            return "| %s | %d | %d | %d | %d | %d | %d | %.1f s | %s |".formatted(scenario, published, succeeded, parked,
                    lost, parkedEarly, duplicates, took.toMillis() / 1000.0, notes);
        }
    }

}
