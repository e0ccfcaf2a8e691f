package io.github.retrytopology.operations.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.operations.broker.BrokerMessages;
import io.github.retrytopology.runtime.parkinglot.FailureGroup;
import io.github.retrytopology.runtime.parkinglot.FailureGroups;
import io.github.retrytopology.runtime.parkinglot.ParkedMessage;
import io.github.retrytopology.runtime.parkinglot.ParkingLot;
import io.github.retrytopology.runtime.parkinglot.ReplayFilter;
import io.github.retrytopology.runtime.parkinglot.ReplayOptions;
import io.github.retrytopology.runtime.parkinglot.ReplayReport;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's HTTP face: its three static files, and a JSON API under {@code /api/} that the page calls. It checks
 * every request before it routes it: the {@code Host} must be this console's (DNS rebinding), and an action must
 * carry the token of this process, as JSON, from a page of the same origin (cross-site requests).
 */
final class ConsoleApi implements HttpHandler {

    static final String TOKEN_HEADER = "X-Retry-Console-Token";
    private static final Logger LOG = LoggerFactory.getLogger(ConsoleApi.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_REQUEST = 1024 * 1024;
    /** The most messages one request replays by id. */
    static final int MAX_IDS = 10_000;
    private static final int DEFAULT_MESSAGES = 200;
    private static final int MAX_MESSAGES = 5_000;
    private static final String STATIC = "static/";
    private static final Map<String, StaticFile> FILES = Map.of(
            "/", new StaticFile("index.html", "text/html; charset=utf-8"),
            "/console.css", new StaticFile("console.css", "text/css; charset=utf-8"),
            "/console.js", new StaticFile("console.js", "text/javascript; charset=utf-8"));
    private static final String POLICY = "default-src 'self'; img-src 'self' data:; style-src 'self'; "
            + "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

    private final RetrySpec spec;
    private final String specName;
    private final ConsoleSettings settings;
    private final String token;
    private final AmqpConnection amqp;
    private final Overview overview;
    private final Jobs jobs;
    private final Clock clock;
    private final Set<String> hosts;
    private final String topology;

    ConsoleApi(RetrySpec spec, String specName, ConsoleSettings settings, String token, AmqpConnection amqp,
            Overview overview, Jobs jobs, Clock clock, int port) {
        this.spec = spec;
        this.specName = specName;
        this.settings = settings;
        this.token = token;
        this.amqp = amqp;
        this.overview = overview;
        this.jobs = jobs;
        this.clock = clock;
        String address = settings.address().getHostAddress();
        this.hosts = Set.copyOf(List.of("127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port,
                (address.contains(":") ? "[" + address + "]" : address) + ":" + port));
        this.topology = TopologyPicture.svg(spec);
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        int status;
        try (exchange) {
            exchange.getResponseHeaders().set("Content-Security-Policy", POLICY);
            exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
            exchange.getResponseHeaders().set("X-Frame-Options", "DENY");
            exchange.getResponseHeaders().set("Referrer-Policy", "no-referrer");
            exchange.getResponseHeaders().set("Cross-Origin-Resource-Policy", "same-origin");
            try {
                checkHost(exchange);
                status = route(exchange);
            } catch (ConsoleException e) {
                status = e.status();
                json(exchange, status, Map.of("error", e.getMessage()));
            } catch (IOException | RuntimeException e) {
                // The broker refused or did not answer; the page shows what it said.
                status = 502;
                LOG.warn("{} {}: {}", exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                        BrokerMessages.of(e), e);
                json(exchange, status, Map.of("error", "the broker: " + BrokerMessages.of(e)));
            } catch (Exception e) {
                status = 500;
                LOG.warn("{} {} failed", exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(), e);
                json(exchange, status, Map.of("error", BrokerMessages.of(e)));
            }
        }
        LOG.debug("{} {} {}", exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(), status);
    }

    /** Refuses a request for another host name: a page of another site that rebinds its name to this address. */
    private void checkHost(HttpExchange exchange) {
        if (settings.allowRemote()) {
            return; // reached by whatever name the operator gave it, behind their proxy
        }
        String host = exchange.getRequestHeaders().getFirst("Host");
        if (host == null || !hosts.contains(host.toLowerCase(Locale.ROOT))) {
            throw new ConsoleException(403, "this console answers requests for " + new TreeSet<>(hosts) + " only");
        }
    }

    private int route(HttpExchange exchange) throws Exception {
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getRawPath();
        StaticFile file = FILES.get(path);
        if (file != null) {
            requireMethod(exchange, "GET");
            return file(exchange, file);
        }
        if (!path.startsWith("/api/")) {
            throw ConsoleException.notFound("no page " + path);
        }
        List<String> parts = segments(path.substring("/api/".length()));
        if ("POST".equals(method)) {
            checkAction(exchange);
        }
        return switch (parts.size()) {
            case 1 -> switch (parts.get(0)) {
                case "session" -> get(exchange, this::session);
                case "overview" -> get(exchange, overview::read);
                case "jobs" -> get(exchange, () -> Map.of("jobs", jobs.all().stream().map(Job::view).toList()));
                case "topology.svg" -> {
                    requireMethod(exchange, "GET");
                    yield send(exchange, 200, "image/svg+xml; charset=utf-8", topology.getBytes(StandardCharsets.UTF_8));
                }
                default -> throw ConsoleException.notFound("no API /api/" + parts.get(0));
            };
            case 2 -> {
                if (!parts.get(0).equals("jobs")) {
                    throw ConsoleException.notFound("no API " + path);
                }
                yield get(exchange, () -> jobs.job(parts.get(1)).view());
            }
            case 3 -> {
                Service service = service(parts, path);
                yield switch (parts.get(2)) {
                    case "groups" -> get(exchange, () -> groups(service));
                    case "replay" -> post(exchange, 202, body -> replay(service, body));
                    case "purge" -> post(exchange, 202, body -> purge(service, body));
                    default -> throw ConsoleException.notFound("no API " + path);
                };
            }
            case 4 -> {
                Service service = service(parts, path);
                if (!parts.get(2).equals("messages")) {
                    throw ConsoleException.notFound("no API " + path);
                }
                yield get(exchange, () -> message(service, parts.get(3)));
            }
            case 5 -> {
                Service service = service(parts, path);
                if (!parts.get(2).equals("groups") || !parts.get(4).equals("messages")) {
                    throw ConsoleException.notFound("no API " + path);
                }
                int limit = limit(exchange);
                yield get(exchange, () -> groupMessages(service, parts.get(3), limit));
            }
            default -> throw ConsoleException.notFound("no API " + path);
        };
    }

    private Service service(List<String> parts, String path) {
        if (!parts.get(0).equals("services")) {
            throw ConsoleException.notFound("no API " + path);
        }
        try {
            return spec.service(parts.get(1));
        } catch (IllegalArgumentException e) {
            throw ConsoleException.notFound("no service '" + parts.get(1) + "' in " + specName);
        }
    }

    /**
     * Refuses an action that is not from this console's own page: without the token only its page can read, not as
     * JSON (which a form of another site cannot send without asking first), or from another origin.
     */
    private void checkAction(HttpExchange exchange) {
        String sent = exchange.getRequestHeaders().getFirst(TOKEN_HEADER);
        if (sent == null || !MessageDigest.isEqual(sent.getBytes(StandardCharsets.UTF_8),
                token.getBytes(StandardCharsets.UTF_8))) {
            throw new ConsoleException(403, "an action needs the " + TOKEN_HEADER + " header of this console's page; "
                    + "reload the page (the console may have restarted)");
        }
        String type = exchange.getRequestHeaders().getFirst("Content-Type");
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            throw new ConsoleException(415, "an action is sent as application/json");
        }
        String origin = exchange.getRequestHeaders().getFirst("Origin");
        String host = exchange.getRequestHeaders().getFirst("Host");
        // Behind an authenticating proxy (--allow-remote) the page may be https; the host must be the same.
        if (origin != null && !origin.equalsIgnoreCase("http://" + host)
                && !(settings.allowRemote() && origin.equalsIgnoreCase("https://" + host))) {
            throw new ConsoleException(403, "an action from " + origin + " is refused: only this console's page acts");
        }
        String site = exchange.getRequestHeaders().getFirst("Sec-Fetch-Site");
        if (site != null && !site.equals("same-origin") && !site.equals("none")) {
            throw new ConsoleException(403, "a cross-site action is refused");
        }
        if (settings.readOnly()) {
            throw new ConsoleException(403, "this console is read-only: it shows, and changes nothing");
        }
    }

    private Map<String, Object> session() {
        return Map.of("token", token, "readOnly", settings.readOnly(), "spec", specName, "vhost", spec.vhost(),
                "exchange", spec.exchange(), "operator", settings.operator());
    }

    record GroupsView(String service, String parkingLot, long parked, long scanned, boolean complete, long tookMillis,
            List<GroupView> groups) {
    }

    record GroupView(String key, String exception, String message, String reason, long count, String first,
            String last) {

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

    private Job.View replay(Service service, JsonNode body) {
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
        String fingerprint = "replay " + service.name() + " " + chosen + " at " + rate;
        ReplayOptions options = ReplayOptions.limit(limit).rate(rate).replayedBy(settings.operator() + " (retry console)");
        Jobs.Submitted submitted = jobs.submit(requestId, fingerprint, Job.Kind.REPLAY, service.name(), expected, rate,
                job -> {
                    ReplayReport report = parkingLot(service).replay(filter, options.progress(job::progress));
                    job.twinsDropped(report.twinsDropped());
                    LOG.info("{} replayed {} parked messages of {} ({})", settings.operator(), report.replayed(),
                            service.name(), chosen.length() > 200 ? chosen.substring(0, 200) + "…" : chosen);
                });
        return submitted.job().view();
    }

    private Job.View purge(Service service, JsonNode body) {
        String requestId = requestId(body);
        if (!service.name().equals(body.path("confirm").asText(null))) {
            throw ConsoleException.badRequest("a purge deletes every parked message of " + service.name()
                    + " for good: confirm it with \"confirm\": \"" + service.name() + "\"");
        }
        Jobs.Submitted submitted = jobs.submit(requestId, "purge " + service.name(), Job.Kind.PURGE, service.name(),
                null, null, job -> {
                    long purged = parkingLot(service).purge();
                    job.purged(purged);
                    LOG.info("{} purged {} parked messages of {}", settings.operator(), purged, service.name());
                });
        return submitted.job().view();
    }

    private ParkingLot parkingLot(Service service) throws IOException {
        return ParkingLot.of(amqp.get(), service, clock);
    }

    /** A group's count as the page read it, or null if the request gives none. */
    private static Long expected(JsonNode node) {
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

    private static int limit(HttpExchange exchange) {
        String query = exchange.getRequestURI().getRawQuery();
        if (query == null) {
            return DEFAULT_MESSAGES;
        }
        for (String parameter : query.split("&")) {
            if (parameter.startsWith("limit=")) {
                try {
                    int limit = Integer.parseInt(parameter.substring("limit=".length()));
                    if (limit >= 1 && limit <= MAX_MESSAGES) {
                        return limit;
                    }
                } catch (NumberFormatException notANumber) {
                    // refused below
                }
                throw ConsoleException.badRequest("limit is a whole number from 1 to " + MAX_MESSAGES + "; got '"
                        + parameter.substring("limit=".length()) + "'");
            }
        }
        return DEFAULT_MESSAGES;
    }

    /** The path's segments, each decoded: ids and names may hold any character. */
    private static List<String> segments(String path) {
        List<String> segments = new ArrayList<>();
        for (String segment : Arrays.asList(path.split("/", -1))) {
            try {
                // URLDecoder reads '+' as a space, as in a form; in a path it is itself.
                segments.add(URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw ConsoleException.badRequest("the path has a broken %-escape: " + segment);
            }
        }
        return segments;
    }

    @FunctionalInterface
    private interface Answer {
        Object answer() throws Exception;
    }

    @FunctionalInterface
    private interface Action {
        Object act(JsonNode body) throws Exception;
    }

    private static int get(HttpExchange exchange, Answer answer) throws Exception {
        requireMethod(exchange, "GET");
        return json(exchange, 200, answer.answer());
    }

    private static int post(HttpExchange exchange, int status, Action action) throws Exception {
        requireMethod(exchange, "POST");
        byte[] bytes;
        try (InputStream in = exchange.getRequestBody()) {
            bytes = in.readNBytes(MAX_REQUEST + 1);
        }
        if (bytes.length > MAX_REQUEST) {
            throw new ConsoleException(413, "an action's request is at most " + MAX_REQUEST + " bytes");
        }
        JsonNode body;
        try {
            body = JSON.readTree(bytes);
        } catch (JsonProcessingException e) {
            throw ConsoleException.badRequest("the request is not JSON: " + e.getOriginalMessage());
        }
        if (body == null || !body.isObject()) {
            throw ConsoleException.badRequest("the request is a JSON object");
        }
        return json(exchange, status, action.act(body));
    }

    private static void requireMethod(HttpExchange exchange, String method) {
        if (!exchange.getRequestMethod().equals(method)) {
            exchange.getResponseHeaders().set("Allow", method);
            throw new ConsoleException(405, exchange.getRequestMethod() + " " + exchange.getRequestURI().getRawPath()
                    + " is not allowed; use " + method);
        }
    }

    /** One of the page's files, in the jar beside this class, and its media type. */
    private record StaticFile(String name, String type) {
    }

    private int file(HttpExchange exchange, StaticFile file) throws IOException {
        byte[] bytes;
        try (InputStream in = ConsoleApi.class.getResourceAsStream(STATIC + file.name())) {
            if (in == null) {
                throw new IllegalStateException("the console's " + file.name() + " is missing from its jar");
            }
            bytes = in.readAllBytes();
        }
        exchange.getResponseHeaders().set("Cache-Control", "no-cache");
        return send(exchange, 200, file.type(), bytes);
    }

    private static int json(HttpExchange exchange, int status, Object value) throws IOException {
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        return send(exchange, status, "application/json; charset=utf-8", JSON.writeValueAsBytes(value));
    }

    private static int send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        exchange.getResponseBody().write(body);
        return status;
    }
}
