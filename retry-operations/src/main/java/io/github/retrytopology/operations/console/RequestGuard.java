package io.github.retrytopology.operations.console;

import com.sun.net.httpserver.HttpExchange;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The checks every request passes before it is routed, and that every action passes besides: the {@code Host} must
 * be this console's (DNS rebinding); the operator must be named, by the proxy's header where there is one; and an
 * action must carry its operator's token, as JSON, from a page of the same origin (cross-site requests).
 */
final class RequestGuard {

    static final String TOKEN_HEADER = "X-Retry-Console-Token";
    /** The host a proxy was asked for, which the browser's {@code Origin} names; trusted only from that proxy. */
    private static final String FORWARDED_HOST = "X-Forwarded-Host";

    private final ConsoleSettings settings;
    private final SessionTokens tokens;
    private final Set<String> hosts;

    RequestGuard(ConsoleSettings settings, SessionTokens tokens, int port) {
        this.settings = settings;
        this.tokens = tokens;
        String address = settings.address().getHostAddress();
        this.hosts = Set.copyOf(List.of("127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port,
                (address.contains(":") ? "[" + address + "]" : address) + ":" + port));
    }

    /**
     * Admits a request, and returns who sends it.
     *
     * @throws ConsoleException 403 for another host's name, or, behind a proxy, a request it did not name a user in
     */
    String admit(HttpExchange exchange) {
        if (!settings.allowRemote()) {
            // Reached by whatever name the operator's proxy gives it otherwise, and only by that proxy.
            String host = exchange.getRequestHeaders().getFirst("Host");
            if (host == null || !hosts.contains(host.toLowerCase(Locale.ROOT))) {
                throw new ConsoleException(403, "this console answers requests for " + new TreeSet<>(hosts) + " only");
            }
        }
        if (settings.operator() instanceof OperatorSource.ProxyHeader proxy) {
            return proxy.operatorOf(exchange.getRequestHeaders().get(proxy.header()));
        }
        return ((OperatorSource.Named) settings.operator()).name();
    }

    /** The token this operator's page sends with each action. */
    String token(String operator) {
        return tokens.token(operator);
    }

    /**
     * Refuses an action that is not from this operator's page of this console: without the token only that page can
     * read, not as JSON (which a form of another site cannot send without asking first), or from another origin.
     */
    void checkAction(HttpExchange exchange, String operator) {
        if (!tokens.matches(exchange.getRequestHeaders().getFirst(TOKEN_HEADER), operator)) {
            throw new ConsoleException(403, "an action needs the " + TOKEN_HEADER + " header of this console's page; "
                    + "reload the page (the console may have restarted)");
        }
        String type = exchange.getRequestHeaders().getFirst("Content-Type");
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            throw new ConsoleException(415, "an action is sent as application/json");
        }
        String origin = exchange.getRequestHeaders().getFirst("Origin");
        if (origin != null && !sameOrigin(exchange, origin)) {
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

    /**
     * Whether the page that sent an action was served by the host the request names. Behind a proxy the page may be
     * https, and the proxy may forward to the console's own address, naming the host it was asked for in
     * {@value #FORWARDED_HOST}; that header counts only where the proxy names the operator too, so is trusted.
     */
    private boolean sameOrigin(HttpExchange exchange, String origin) {
        boolean proxied = settings.operator() instanceof OperatorSource.ProxyHeader;
        List<String> names = proxied
                ? List.of(String.valueOf(exchange.getRequestHeaders().getFirst("Host")),
                        String.valueOf(exchange.getRequestHeaders().getFirst(FORWARDED_HOST)))
                : List.of(String.valueOf(exchange.getRequestHeaders().getFirst("Host")));
        return names.stream().anyMatch(host -> origin.equalsIgnoreCase("http://" + host)
                || proxied && origin.equalsIgnoreCase("https://" + host));
    }
}
