package io.github.retrytopology.operations.broker;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.retrytopology.model.topology.Binding;
import io.github.retrytopology.model.topology.Exchange;
import io.github.retrytopology.model.topology.Policy;
import io.github.retrytopology.model.topology.Queue;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;

/**
 * The parts of RabbitMQ's HTTP management API that plan and apply use: the definitions and statistics they read, the
 * policies that AMQP cannot reach, and the exchanges, queues and bindings they change. Needs the
 * {@code rabbitmq_management} plugin.
 *
 * <p>It may be given several base URIs, the nodes of one cluster: a request goes to the one that answered
 * last, and when that one does not answer (its connection is refused or times out, so that nothing was
 * sent), to the next. HTTPS works with the JVM's trust store, or with an {@link SSLContext} of one's own.
 */
public final class ManagementApi {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private final HttpClient http;
    private final List<URI> bases;
    private final String authorization;
    private final AtomicInteger answering = new AtomicInteger();

    private ManagementApi(List<URI> bases, String username, String password, Optional<SSLContext> ssl) {
        HttpClient.Builder builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(CONNECT_TIMEOUT);
        ssl.ifPresent(builder::sslContext);
        this.http = builder.build();
        if (bases.isEmpty()) {
            throw new IllegalArgumentException("the management API needs at least one URI");
        }
        this.bases = bases.stream().map(ManagementApi::asBase).toList();
        this.authorization = "Basic " + Base64.getEncoder()
                .encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The API at {@code base}, such as {@code http://127.0.0.1:15672}, as this user.
     */
    public static ManagementApi of(URI base, String username, String password) {
        return of(List.of(requireNonNull(base, "base")), username, password, Optional.empty());
    }

    /**
     * The API of a cluster, at any of these base URIs, tried in order, as this user. Credentials in the URIs
     * are ignored.
     *
     * @param ssl the TLS context of {@code https} URIs; empty for the JVM's default one
     */
    public static ManagementApi of(List<URI> bases, String username, String password, Optional<SSLContext> ssl) {
        return new ManagementApi(List.copyOf(bases), requireNonNull(username, "username"),
                requireNonNull(password, "password"), requireNonNull(ssl, "ssl"));
    }

    /** The API at a URI that carries its credentials, such as {@code http://guest:guest@127.0.0.1:15672}. */
    public static ManagementApi of(URI uri) {
        String userInfo = uri.getRawUserInfo();
        if (userInfo == null || !userInfo.contains(":")) {
            throw new IllegalArgumentException("the management URI needs user:password@ before its host: "
                    + withoutCredentials(uri));
        }
        String[] credentials = userInfo.split(":", 2);
        return of(withoutCredentials(uri), decode(credentials[0]), decode(credentials[1]));
    }

    /** A URI as it may be shown: without the user and password it may carry. */
    public static URI withoutCredentials(URI uri) {
        if (uri.getRawUserInfo() == null) {
            return uri;
        }
        return URI.create(uri.getScheme() + "://" + uri.getRawAuthority().substring(uri.getRawAuthority().indexOf('@') + 1)
                + (uri.getRawPath() == null ? "" : uri.getRawPath()));
    }

    private static URI asBase(URI uri) {
        if (!"http".equalsIgnoreCase(uri.getScheme()) && !"https".equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException("a management URI is http:// or https://, not " + withoutCredentials(uri));
        }
        String base = withoutCredentials(uri).toString();
        return URI.create(base.endsWith("/") ? base : base + "/");
    }

    /** The base URI that answered last, or that will be tried first; it carries no credentials. */
    public URI base() {
        return bases.get(answering.get());
    }

    /** Sets a policy in a virtual host, replacing one of the same name. */
    public void putPolicy(String vhost, Policy policy) throws IOException {
        send("PUT", "api/policies/" + encode(vhost) + "/" + encode(policy.name()), policyBody(policy));
    }

    /** Deletes a policy; a missing one is not an error. */
    public void deletePolicy(String vhost, String name) throws IOException {
        deleteIfPresent("api/policies/" + encode(vhost) + "/" + encode(name));
    }

    private static String policyBody(Policy policy) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("pattern", policy.pattern());
        body.put("definition", policy.definition());
        body.put("priority", policy.priority());
        body.put("apply-to", policy.applyTo());
        return write(body);
    }

    /** Declares an exchange: not auto-deleted, not internal, without arguments. */
    public void putExchange(String vhost, Exchange exchange) throws IOException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", exchange.type());
        body.put("durable", exchange.durable());
        body.put("auto_delete", false);
        body.put("internal", false);
        body.put("arguments", Map.of());
        send("PUT", "api/exchanges/" + encode(vhost) + "/" + encode(exchange.name()), write(body));
    }

    /**
     * Declares a durable queue with these arguments. Like AMQP's declaration, it leaves an identical queue as
     * it is and fails on one with other arguments.
     */
    public void putQueue(String vhost, Queue queue) throws IOException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("durable", true);
        body.put("auto_delete", false);
        body.put("arguments", queue.arguments());
        send("PUT", "api/queues/" + encode(vhost) + "/" + encode(queue.name()), write(body));
    }

    /** Binds a queue to an exchange, without binding arguments; binding twice is harmless. */
    public void bind(String vhost, Binding binding) throws IOException {
        send("POST", "api/bindings/" + encode(vhost) + "/e/" + encode(binding.exchange()) + "/q/"
                + encode(binding.queue()), write(Map.of("routing_key", binding.routingKey(), "arguments", Map.of())));
    }

    /**
     * Removes a binding, named by the properties key the API lists it with: the routing key for a binding
     * without arguments. A missing one is not an error.
     */
    public void unbind(String vhost, String exchange, String queue, String propertiesKey) throws IOException {
        deleteIfPresent("api/bindings/" + encode(vhost) + "/e/" + encode(exchange) + "/q/" + encode(queue) + "/"
                + encode(propertiesKey));
    }

    /** Gets any path of the API, such as {@code api/queues/%2F/cdn-purge}, as JSON. */
    public String get(String path) throws IOException {
        return send("GET", path, null);
    }

    /**
     * Gets paths of the API at the same time, each on a thread of its own, and returns their bodies in their order:
     * reading a large virtual host, the queues' statistics take the broker longest.
     *
     * @throws IOException the first path's failure, in their order
     */
    public List<String> getAll(List<String> paths) throws IOException {
        ExecutorService requests = Executors.newFixedThreadPool(paths.size(), task -> {
            Thread thread = new Thread(task, "retry-management-read");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<String>> pending = new ArrayList<>();
            for (String path : paths) {
                pending.add(requests.submit(() -> get(path)));
            }
            List<String> bodies = new ArrayList<>();
            for (Future<String> request : pending) {
                bodies.add(result(request));
            }
            return bodies;
        } finally {
            requests.shutdownNow();
        }
    }

    private static String result(Future<String> request) throws IOException {
        try {
            return request.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("reading the broker was interrupted");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IOException(e.getCause());
        }
    }

    /** Encodes a path segment, such as the virtual host {@code /}, which is {@code %2F}. */
    public static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String write(Object body) {
        try {
            return JSON.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write " + body + " as JSON", e);
        }
    }

    private void deleteIfPresent(String path) throws IOException {
        try {
            send("DELETE", path, null);
        } catch (ManagementApiException e) {
            if (e.status() != 404) {
                throw e;
            }
        }
    }

    private static String decode(String text) {
        return java.net.URLDecoder.decode(text, StandardCharsets.UTF_8);
    }

    private String send(String method, String path, String json) throws IOException {
        int first = answering.get();
        ConnectException unanswered = null;
        for (int attempt = 0; attempt < bases.size(); attempt++) {
            int index = (first + attempt) % bases.size();
            try {
                String body = send(bases.get(index), method, path, json);
                answering.set(index);
                return body;
            } catch (ConnectException e) {
                if (unanswered == null) {
                    unanswered = new ConnectException("no management API answered: " + bases);
                }
                unanswered.addSuppressed(e);
            }
        }
        throw unanswered;
    }

    /** Sends one request; a {@link ConnectException} means it was not sent, so that another node may take it. */
    private String send(URI base, String method, String path, String json) throws IOException {
        URI target = base.resolve(path);
        HttpRequest.Builder request = HttpRequest.newBuilder(target)
                .timeout(TIMEOUT)
                .header("Authorization", authorization)
                .header("Accept", "application/json");
        if (json == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
        }
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (HttpConnectTimeoutException e) {
            ConnectException unanswered = new ConnectException(base + " did not answer within " + CONNECT_TIMEOUT.toSeconds()
                    + " s");
            unanswered.initCause(e);
            throw unanswered;
        } catch (ConnectException e) {
            ConnectException unanswered = new ConnectException(base + " refused the connection"
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()));
            unanswered.initCause(e);
            throw unanswered;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(method + " " + path + " was interrupted");
        }
        if (response.statusCode() >= 300) {
            throw new ManagementApiException(method + " " + target, response.statusCode(), response.body());
        }
        return response.body();
    }
}
