package io.github.retrytopology.operations.console;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.operations.internal.BrokerMessages;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's HTTP face: its three static files, and a JSON API under {@code /api/} that the page calls. Every
 * request passes the {@link RequestGuard} first, which names its operator; then the route table sends it to its
 * handler: the session, the overview, the jobs and the picture here, a parking lot's in {@link ParkingLotResource}.
 */
final class ConsoleApi implements HttpHandler {

    static final String TOKEN_HEADER = RequestGuard.TOKEN_HEADER;
    private static final Logger LOG = LoggerFactory.getLogger(ConsoleApi.class);
    private static final String STATIC = "static/";
    private static final String POLICY = "default-src 'self'; img-src 'self' data:; style-src 'self'; "
            + "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

    private final RetrySpec spec;
    private final String specName;
    private final ConsoleSettings settings;
    private final RequestGuard guard;
    private final Routes routes;

    ConsoleApi(RetrySpec spec, String specName, ConsoleSettings settings, RequestGuard guard, Overview overview,
            Jobs jobs, ParkingLotResource parkingLots) {
        this.spec = spec;
        this.specName = specName;
        this.settings = settings;
        this.guard = guard;
        byte[] topology = TopologyPicture.svg(spec).getBytes(StandardCharsets.UTF_8);
        this.routes = parkingLots.routes(new Routes()
                .get("/", file("index.html", "text/html; charset=utf-8"))
                .get("/console.css", file("console.css", "text/css; charset=utf-8"))
                .get("/console.js", file("console.js", "text/javascript; charset=utf-8"))
                .get("/api/session", request -> Reply.ok(session(request.operator())))
                .get("/api/overview", request -> Reply.ok(overview.read()))
                .get("/api/topology.svg", request -> Reply.file("image/svg+xml; charset=utf-8", topology))
                .get("/api/jobs", request -> Reply.ok(Map.of("jobs", jobs.all().stream().map(Job::view).toList())))
                .get("/api/jobs/{id}", request -> Reply.ok(jobs.job(request.parameter("id")).view())));
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
            Reply reply;
            try {
                reply = answer(exchange);
            } catch (ConsoleException e) {
                if (!e.allowed().isEmpty()) {
                    exchange.getResponseHeaders().set("Allow", String.join(", ", e.allowed()));
                }
                reply = Reply.json(e.status(), Map.of("error", e.getMessage()));
            } catch (IOException | RuntimeException e) {
                // The broker refused or did not answer; the page shows what it said.
                LOG.warn("{} {}: {}", exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                        BrokerMessages.of(e), e);
                reply = Reply.json(502, Map.of("error", "the broker: " + BrokerMessages.of(e)));
            } catch (Exception e) {
                LOG.warn("{} {} failed", exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(), e);
                reply = Reply.json(500, Map.of("error", BrokerMessages.of(e)));
            }
            status = reply.status();
            exchange.getResponseHeaders().set("Content-Type", reply.type());
            exchange.getResponseHeaders().set("Cache-Control", reply.cacheControl());
            exchange.sendResponseHeaders(status, reply.body().length == 0 ? -1 : reply.body().length);
            exchange.getResponseBody().write(reply.body());
        }
        LOG.debug("{} {} {}", exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(), status);
    }

    private Reply answer(HttpExchange exchange) throws Exception {
        String operator = guard.admit(exchange);
        if ("POST".equals(exchange.getRequestMethod())) {
            guard.checkAction(exchange, operator);
        }
        Routes.Match match = routes.match(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath());
        return match.handler().handle(new Request(exchange, match.parameters(), operator));
    }

    /** The page's session: this operator's token, and what the page shows in its header. */
    private Map<String, Object> session(String operator) {
        return Map.of("token", guard.token(operator), "readOnly", settings.readOnly(), "spec", specName,
                "vhost", spec.vhost(), "exchange", spec.exchange(), "operator", operator,
                "operatorFrom", settings.operator() instanceof OperatorSource.ProxyHeader proxy
                        ? "the proxy's " + proxy.header() + " header" : "--as");
    }

    /** One of the page's files, in the jar beside this class. */
    private static Routes.Handler file(String name, String type) {
        return request -> {
            try (InputStream in = ConsoleApi.class.getResourceAsStream(STATIC + name)) {
                if (in == null) {
                    throw new IllegalStateException("the console's " + name + " is missing from its jar");
                }
                return Reply.file(type, in.readAllBytes());
            }
        };
    }
}
