package io.github.retrytopology.operations.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.runtime.parkinglot.FailureGroup;
import io.github.retrytopology.runtime.parkinglot.FailureGroups;
import io.github.retrytopology.runtime.parkinglot.ParkedMessage;
import io.github.retrytopology.runtime.parkinglot.ParkingLot;
import io.github.retrytopology.runtime.parkinglot.ReplayFilter;
import io.github.retrytopology.runtime.parkinglot.ReplayOptions;
import io.github.retrytopology.runtime.parkinglot.ReplayReport;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A service's parking lot under {@code /api/services/{service}/}: read by failure, a group's messages, one message
 * whole, and the actions on it, replay and purge, each a {@link Job} in the name of the request's operator.
 */
final class ParkingLotResource {

    private static final Logger LOG = LoggerFactory.getLogger(ParkingLotResource.class);
    /** The most messages one request replays by id. */
    static final int MAX_IDS = 10_000;
    private static final int DEFAULT_MESSAGES = 200;
    private static final int MAX_MESSAGES = 5_000;
    /** What a replayed message's {@code retry-replayed-by} says after the operator's name. */
    static final String REPLAYED_BY_SUFFIX = " (retry console)";

    private final RetrySpec spec;
    private final String specName;
    private final ConsoleSettings settings;
    private final AmqpConnection amqp;
    private final Jobs jobs;
    private final Clock clock;

    ParkingLotResource(RetrySpec spec, String specName, ConsoleSettings settings, AmqpConnection amqp, Jobs jobs,
            Clock clock) {
        this.spec = spec;
        this.specName = specName;
        this.settings = settings;
        this.amqp = amqp;
        this.jobs = jobs;
        this.clock = clock;
    }

    /** Its routes, in the console's table. */
    Routes routes(Routes routes) {
        return routes
                .get("/api/services/{service}/groups", request -> Reply.ok(groups(service(request))))
                .get("/api/services/{service}/groups/{key}/messages", request -> Reply.ok(groupMessages(
                        service(request), request.parameter("key"), limit(request))))
                .get("/api/services/{service}/messages/{id}", request -> Reply.ok(message(service(request),
                        request.parameter("id"))))
                .post("/api/services/{service}/replay", request -> {
                    Service service = service(request);
                    return Reply.json(202, replay(service, request.body(), request.operator()));
                })
                .post("/api/services/{service}/purge", request -> {
                    Service service = service(request);
                    return Reply.json(202, purge(service, request.body(), request.operator()));
                });
    }

    private Service service(Request request) {
        String name = request.parameter("service");
        try {
            return spec.service(name);
        } catch (IllegalArgumentException e) {
            throw ConsoleException.notFound("no service '" + name + "' in " + specName);
        }
    }

    record GroupsView(String service, String parkingLot, long parked, long scanned, boolean complete, long tookMillis,
            List<GroupView> groups) {
    }

    record GroupView(String key, @Nullable String exception, @Nullable String message, @Nullable String reason,
            long count, @Nullable String first, @Nullable String last) {

        static GroupView of(FailureGroup group) {
            return new GroupView(group.key(), group.failure().exception().orElse(null),
                    group.failure().message().orElse(null), group.failure().reason().orElse(null), group.count(),
                    group.first().map(Object::toString).orElse(null), group.last().map(Object::toString).orElse(null));
        }
    }

    private GroupsView groups(Service service) throws Exception {
        FailureGroups read = jobs.reading(service.name(), () -> parkingLot(service).groups(settings.maxScan()));
        return new GroupsView(service.name(), service.parkingLot(), read.parked(), read.scanned(), read.complete(),
                read.took().toMillis(), read.groups().stream().map(GroupView::of).toList());
    }

    record GroupMessages(GroupView group, List<MessageView.Summary> messages, boolean more) {
    }

    private GroupMessages groupMessages(Service service, String key, int limit) throws Exception {
        FailureGroups read = jobs.reading(service.name(),
                () -> parkingLot(service).groups(settings.maxScan(), ReplayFilter.all().failure(key), limit + 1));
        FailureGroup group = read.groups().stream().filter(candidate -> candidate.key().equals(key)).findFirst()
                .orElseThrow(() -> ConsoleException.notFound("no group " + key + " in " + service.parkingLot()
                        + " now: its messages were replayed or purged, or none is parked"));
        List<MessageView.Summary> shown = read.messages().stream().limit(limit).map(MessageView::summary).toList();
        return new GroupMessages(GroupView.of(group), shown, read.messages().size() > limit);
    }

    private MessageView.Detail message(Service service, String id) throws Exception {
        List<ParkedMessage> found = jobs.reading(service.name(),
                () -> parkingLot(service).list(ReplayFilter.all().ids(List.of(id)), 1, settings.maxScan()));
        if (found.isEmpty()) {
            throw ConsoleException.notFound("no message " + id + " in " + service.parkingLot()
                    + " now: it was replayed or purged");
        }
        return MessageView.detail(found.get(0));
    }

    private Job.View replay(Service service, JsonNode body, String operator) {
        String requestId = requestId(body);
        JsonNode rateNode = body.path("rate");
        if (!rateNode.isNumber() || !(rateNode.asDouble() > 0) || rateNode.asDouble() > ReplayOptions.MAX_RATE) {
            throw ConsoleException.badRequest("rate is a number of messages a second, more than 0 and at most "
                    + (long) ReplayOptions.MAX_RATE + "; got " + rateNode);
        }
        double rate = rateNode.asDouble();
        boolean byGroup = body.hasNonNull("group");
        boolean byIds = body.hasNonNull("ids");
        if (byGroup == byIds) {
            throw ConsoleException.badRequest("a replay names either a group or ids, one of the two");
        }
        ReplayFilter filter;
        int limit;
        Long expected;
        String chosen;
        if (byGroup) {
            String key = text(body.path("group"), "group");
            filter = ReplayFilter.all().failure(key);
            // The group as its page counted it: the replay stops looking once it has them, and messages parked in
            // the group since stay for another look. A bad count is refused, never read as "the whole group".
            expected = expected(body.path("expected"));
            limit = expected == null ? Integer.MAX_VALUE : (int) Math.min(expected, Integer.MAX_VALUE);
            chosen = "group " + key + (expected == null ? "" : " of " + expected);
        } else {
            if (body.hasNonNull("expected")) {
                throw ConsoleException.badRequest("expected goes with a group: a replay of ids takes the messages it "
                        + "names; got " + abbreviate(body.path("expected")));
            }
            JsonNode ids = body.path("ids");
            if (!ids.isArray() || ids.isEmpty() || ids.size() > MAX_IDS) {
                throw ConsoleException.badRequest("ids is a list of 1 to " + MAX_IDS + " message ids; got " + abbreviate(ids));
            }
            Set<String> chosenIds = new TreeSet<>();
            ids.forEach(id -> chosenIds.add(text(id, "each id")));
            filter = ReplayFilter.all().ids(chosenIds);
            limit = chosenIds.size();
            expected = (long) chosenIds.size();
            chosen = "ids " + chosenIds;
        }
        // The operator is part of what was asked: another person's request with the same id is not this one sent again.
        String fingerprint = "replay " + service.name() + " " + chosen + " at " + rate + " by " + operator;
        ReplayOptions options = ReplayOptions.limit(limit).rate(rate).replayedBy(operator + REPLAYED_BY_SUFFIX);
        Jobs.Submitted submitted = jobs.submit(requestId, fingerprint, Job.Kind.REPLAY, service.name(), operator,
                expected, rate, job -> {
                    ReplayReport report = parkingLot(service).replay(filter, options.progress(job::progress));
                    job.twinsDropped(report.twinsDropped());
                    LOG.info("{} replayed {} parked messages of {} ({})", operator, report.replayed(),
                            service.name(), chosen.length() > 200 ? chosen.substring(0, 200) + "…" : chosen);
                });
        return submitted.job().view();
    }

    private Job.View purge(Service service, JsonNode body, String operator) {
        String requestId = requestId(body);
        if (!service.name().equals(body.path("confirm").asText(null))) {
            throw ConsoleException.badRequest("a purge deletes every parked message of " + service.name()
                    + " for good: confirm it with \"confirm\": \"" + service.name() + "\"");
        }
        Jobs.Submitted submitted = jobs.submit(requestId, "purge " + service.name() + " by " + operator,
                Job.Kind.PURGE, service.name(), operator, null, null, job -> {
                    long purged = parkingLot(service).purge();
                    job.purged(purged);
                    LOG.info("{} purged {} parked messages of {}", operator, purged, service.name());
                });
        return submitted.job().view();
    }

    private ParkingLot parkingLot(Service service) throws IOException {
        return ParkingLot.of(amqp.get(), service, clock);
    }

    /** A group's count as the page read it, or null if the request gives none. */
    private static @Nullable Long expected(JsonNode node) {
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        if (!node.isNumber() || !node.canConvertToExactIntegral() || !node.canConvertToLong() || node.asLong() < 1) {
            throw ConsoleException.badRequest("expected is a whole number of messages, 1 or more; got "
                    + abbreviate(node));
        }
        return node.asLong();
    }

    private static String requestId(JsonNode body) {
        String id = text(body.path("requestId"), "requestId");
        if (id.length() > 100) {
            throw ConsoleException.badRequest("requestId is at most 100 characters");
        }
        return id;
    }

    private static String text(JsonNode node, String what) {
        if (!node.isTextual() || node.asText().isEmpty()) {
            throw ConsoleException.badRequest(what + " is a non-empty string; got " + abbreviate(node));
        }
        return node.asText();
    }

    private static String abbreviate(JsonNode node) {
        String text = node.isMissingNode() ? "nothing" : node.toString();
        return text.length() > 80 ? text.substring(0, 80) + "…" : text;
    }

    private static int limit(Request request) {
        return request.query("limit").map(value -> {
            try {
                int limit = Integer.parseInt(value);
                if (limit >= 1 && limit <= MAX_MESSAGES) {
                    return limit;
                }
            } catch (NumberFormatException notANumber) {
                // refused below
            }
            throw ConsoleException.badRequest("limit is a whole number from 1 to " + MAX_MESSAGES + "; got '" + value
                    + "'");
        }).orElse(DEFAULT_MESSAGES);
    }
}
