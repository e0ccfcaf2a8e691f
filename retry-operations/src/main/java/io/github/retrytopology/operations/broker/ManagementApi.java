package io.github.retrytopology.operations.broker;

import static java.util.Objects.requireNonNull;

import com.rabbitmq.http.client.Client;
import com.rabbitmq.http.client.ClientParameters;
import com.rabbitmq.http.client.domain.BindingInfo;
import com.rabbitmq.http.client.domain.ExchangeInfo;
import com.rabbitmq.http.client.domain.NodeInfo;
import com.rabbitmq.http.client.domain.PolicyInfo;
import com.rabbitmq.http.client.domain.QueryParameters;
import com.rabbitmq.http.client.domain.QueueInfo;
import io.github.retrytopology.model.topology.Binding;
import io.github.retrytopology.model.topology.Exchange;
import io.github.retrytopology.model.topology.Policy;
import io.github.retrytopology.model.topology.Queue;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import org.jspecify.annotations.Nullable;

/**
 * The parts of RabbitMQ's HTTP management API that plan, apply and adopt use: the definitions and statistics they
 * read, the policies that AMQP cannot reach, and the exchanges, queues and bindings they change. Needs the
 * {@code rabbitmq_management} plugin.
 *
 * <p>Requests go through RabbitMQ's own client of the API, Hop ({@code com.rabbitmq:http-client}), and its types;
 * what Hop lacks (one virtual host's definitions, the statistics of quorum queues) is read into this package's
 * records with the same JSON mapping. Every method throws a {@link ManagementApiException} when the API answers with
 * an error status, with the broker's reason.
 *
 * <p>It may be given several base URIs, the nodes of one cluster: a request goes to the one that answered
 * last, and when that one does not answer (its connection is refused or times out, so that nothing was
 * sent), to the next. HTTPS works with the JVM's trust store, or with an {@link SSLContext} of one's own. Making one
 * costs nothing: the JDK's HTTP client it uses is made on the first request, one a JVM for {@code http://}, one
 * for the JVM's TLS context and one for each TLS context of one's own.
 */
public final class ManagementApi {

    private final List<URI> bases;
    private final String username;
    private final String password;
    private final Optional<SSLContext> ssl;
    private final AtomicInteger answering = new AtomicInteger();
    private final AtomicReferenceArray<Node> nodes;

    private ManagementApi(List<URI> bases, String username, String password, Optional<SSLContext> ssl) {
        if (bases.isEmpty()) {
            throw new IllegalArgumentException("the management API needs at least one URI");
        }
        this.bases = bases.stream().map(ManagementApi::asBase).toList();
        this.username = username;
        this.password = password;
        this.ssl = ssl;
        this.nodes = new AtomicReferenceArray<>(bases.size());
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
        PolicyInfo info = new PolicyInfo(policy.pattern(), policy.priority(), policy.applyTo(), policy.definition());
        call(node -> {
            node.client().declarePolicy(vhost, policy.name(), info);
            return null;
        });
    }

    /** Deletes a policy; a missing one is not an error. */
    public void deletePolicy(String vhost, String name) throws IOException {
        call(node -> {
            node.client().deletePolicy(vhost, name);
            return null;
        });
    }

    /** Declares an exchange: not auto-deleted, not internal, without arguments. */
    public void putExchange(String vhost, Exchange exchange) throws IOException {
        ExchangeInfo info = new ExchangeInfo(exchange.type(), exchange.durable(), false, false, Map.of());
        call(node -> {
            node.client().declareExchange(vhost, exchange.name(), info);
            return null;
        });
    }

    /**
     * Declares a durable queue with these arguments. Like AMQP's declaration, it leaves an identical queue as
     * it is and fails on one with other arguments.
     */
    public void putQueue(String vhost, Queue queue) throws IOException {
        QueueInfo info = new QueueInfo(true, false, false, queue.arguments());
        call(node -> {
            node.client().declareQueue(vhost, queue.name(), info);
            return null;
        });
    }

    /** Binds a queue to an exchange, without binding arguments; binding twice is harmless. */
    public void bind(String vhost, Binding binding) throws IOException {
        call(node -> {
            node.client().bindQueue(vhost, binding.queue(), binding.exchange(), binding.routingKey(), Map.of());
            return null;
        });
    }

    /**
     * Removes a binding, named by the properties key the API lists it with: the routing key for a binding
     * without arguments. A missing one is not an error.
     */
    public void unbind(String vhost, String exchange, String queue, String propertiesKey) throws IOException {
        call(node -> {
            node.client().unbindQueue(vhost, queue, exchange, propertiesKey);
            return null;
        });
    }

    /** The RabbitMQ version the broker reports, such as {@code 3.10.8}; empty if it reports none. */
    public String brokerVersion() throws IOException {
        return call(node -> Optional.ofNullable(node.client().getOverview().getServerVersion()).orElse(""));
    }

    /** How many nodes the cluster has, read with their names only: Hop's own listing asks for every statistic. */
    public int nodeCount() throws IOException {
        return call(node -> node.transport().get(node.api().resolve("nodes?columns=name"), NodeInfo[].class).length);
    }

    /** One virtual host's definitions ({@code GET /api/definitions/VHOST}). */
    public VhostDefinitions definitions(String vhost) throws IOException {
        return call(node -> node.transport().get(node.api().resolve("definitions/" + encode(vhost)),
                VhostDefinitions.class));
    }

    /**
     * One virtual host's definitions as the broker exports them ({@code GET /api/definitions/VHOST}): the bytes a
     * file of them holds, for a reader that reads such files.
     */
    public byte[] definitionsExport(String vhost) throws IOException {
        return call(node -> node.transport().getBytes(node.api().resolve("definitions/" + encode(vhost))));
    }

    /**
     * The statistics of a virtual host's queues, in these columns only ({@code GET /api/queues/VHOST?columns=}),
     * which keeps the list small for thousands of queues.
     */
    public List<QueueStatistics> queueStatistics(String vhost, List<String> columns) throws IOException {
        return call(node -> List.of(node.transport().get(node.api().resolve("queues/" + encode(vhost) + "?columns="
                + String.join(",", columns)), QueueStatistics[].class)));
    }

    /**
     * A virtual host's queues with the counts their own processes keep ({@code GET /api/queues/VHOST?disable_stats=
     * true&enable_queue_totals=true}): name, state, members, online, messages, ready and unacknowledged, without the
     * statistics database, which for thousands of queues answers several times slower than the definitions. It has
     * no consumers and no {@code messages_dlx}; a quorum queue's {@code messages} counts besides ready and
     * unacknowledged ones those dead-lettered and waiting to be forwarded, and on RabbitMQ 4.3 those waiting for a
     * delayed retry.
     */
    public List<QueueStatistics> queueTotals(String vhost) throws IOException {
        return call(node -> List.of(node.transport().get(node.api().resolve("queues/" + encode(vhost)
                + "?disable_stats=true&enable_queue_totals=true&columns=" + String.join(",", QueueStatistics.TOTALS)),
                QueueStatistics[].class)));
    }

    /** The bindings whose destination is this queue, the default exchange's included. */
    public List<BindingInfo> queueBindings(String vhost, String queue) throws IOException {
        return call(node -> node.client().getQueueBindings(vhost, queue));
    }

    /** Every binding of a virtual host. */
    public List<BindingInfo> bindings(String vhost) throws IOException {
        return call(node -> node.client().getBindings(vhost));
    }

    /** The names of a virtual host's exchanges, the default and {@code amq.} ones included. */
    public List<String> exchangeNames(String vhost) throws IOException {
        ExchangeInfo[] exchanges = call(node -> node.client().getExchanges(vhost,
                new QueryParameters().columns().add("name").query()).getItems());
        return Stream.of(exchanges).map(ExchangeInfo::getName).toList();
    }

    /** The policies of a virtual host. */
    public List<PolicyInfo> policies(String vhost) throws IOException {
        return call(node -> node.client().getPolicies(vhost));
    }

    /**
     * A virtual host's definitions and its queues' {@linkplain #queueTotals(String) totals}, and if asked, how many
     * nodes the cluster has, the requests at the same time.
     *
     * @throws IOException the first request's failure, in that order
     */
    public VhostReading readTotals(String vhost, boolean countNodes) throws IOException {
        try (Requests requests = new Requests()) {
            Future<List<QueueStatistics>> totals = requests.submit(() -> queueTotals(vhost));
            Future<Integer> nodes = countNodes ? requests.submit(this::nodeCount) : null;
            VhostDefinitions definitions = definitions(vhost);
            return new VhostReading(definitions, result(totals), nodes == null ? 1 : result(nodes));
        }
    }

    /**
     * A virtual host's {@linkplain #definitionsExport(String) definitions as exported} and its queues' statistics
     * in these columns, the requests at the same time.
     *
     * @throws IOException the first request's failure, in that order
     */
    public ExportReading readExport(String vhost, List<String> columns) throws IOException {
        try (Requests requests = new Requests()) {
            Future<List<QueueStatistics>> statistics = requests.submit(() -> queueStatistics(vhost, columns));
            return new ExportReading(definitionsExport(vhost), result(statistics));
        }
    }

    /**
     * A virtual host as {@link #readExport(String, List)} reads it.
     *
     * @param definitions the bytes of {@code GET /api/definitions/VHOST}
     */
    public record ExportReading(byte[] definitions, List<QueueStatistics> statistics) {

        public ExportReading {
            requireNonNull(definitions, "definitions");
            statistics = List.copyOf(statistics);
        }
    }

    /** Requests sent beside the one the calling thread makes, each on a thread of its own, stopped on close. */
    private static final class Requests implements AutoCloseable {

        private final ExecutorService threads = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "retry-management-read");
            thread.setDaemon(true);
            return thread;
        });

        <T> Future<T> submit(Callable<T> request) {
            return threads.submit(request);
        }

        @Override
        public void close() {
            threads.shutdownNow();
        }
    }

    /**
     * A virtual host as {@link #readTotals(String, boolean)} reads it.
     *
     * @param nodes how many nodes the cluster has; 1 when not counted
     */
    public record VhostReading(VhostDefinitions definitions, List<QueueStatistics> statistics, int nodes) {

        public VhostReading {
            requireNonNull(definitions, "definitions");
            statistics = List.copyOf(statistics);
        }
    }

    private static <T> T result(Future<T> request) throws IOException {
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

    private static String decode(String text) {
        return java.net.URLDecoder.decode(text, StandardCharsets.UTF_8);
    }

    /** A request to one node. */
    @FunctionalInterface
    private interface Request<T extends @Nullable Object> {
        T to(Node node);
    }

    /**
     * One base URI's transport, which reads what Hop does not, and Hop's client over it, made when first asked for:
     * a reading that needs no Hop type (such as an export) does not load its classes.
     */
    private static final class Node {

        private final URI api;
        private final ManagementTransport transport;
        private final String username;
        private final String password;
        private Client client;

        Node(URI api, ManagementTransport transport, String username, String password) {
            this.api = api;
            this.transport = transport;
            this.username = username;
            this.password = password;
        }

        URI api() {
            return api;
        }

        ManagementTransport transport() {
            return transport;
        }

        synchronized Client client() {
            if (client == null) {
                try {
                    client = new Client(new ClientParameters().url(api.toURL()).username(username).password(password)
                            .httpLayerFactory(parameters -> transport));
                } catch (MalformedURLException | URISyntaxException e) {
                    throw new IllegalArgumentException("'" + api + "' is not a management URI: " + e.getMessage(), e);
                }
            }
            return client;
        }
    }

    private <T extends @Nullable Object> T call(Request<T> request) throws IOException {
        int first = answering.get();
        ConnectException unanswered = null;
        for (int attempt = 0; attempt < bases.size(); attempt++) {
            int index = (first + attempt) % bases.size();
            try {
                T answer = request.to(node(index));
                answering.set(index);
                return answer;
            } catch (UncheckedIOException e) {
                if (!(e.getCause() instanceof ConnectException refused)) {
                    throw e.getCause();
                }
                if (unanswered == null) {
                    unanswered = new ConnectException("no management API answered: " + bases);
                }
                unanswered.addSuppressed(refused);
            }
        }
        throw unanswered;
    }

    private Node node(int index) {
        Node node = nodes.get(index);
        if (node == null) {
            URI base = bases.get(index);
            URI api = base.resolve("api/");
            node = new Node(api, new ManagementTransport(base, http(), username, password), username, password);
            nodes.compareAndSet(index, null, node);
            node = nodes.get(index);
        }
        return node;
    }

    private HttpClient http() {
        boolean tls = bases.stream().anyMatch(base -> "https".equalsIgnoreCase(base.getScheme()));
        if (!tls) {
            return PlainHttp.CLIENT;
        }
        if (ssl.isEmpty()) {
            return DefaultTls.CLIENT;
        }
        synchronized (OWN_TLS) {
            return OWN_TLS.computeIfAbsent(ssl.get(), context -> ManagementTransport.client(true, ssl));
        }
    }

    /** The clients of TLS contexts of one's own, one a context: a process has few, and keeps them. */
    private static final Map<SSLContext, HttpClient> OWN_TLS = new WeakHashMap<>();

    /** The client every instance for {@code http://} shares, made on first use. */
    private static final class PlainHttp {
        static final HttpClient CLIENT = ManagementTransport.client(false, Optional.empty());
    }

    /** The client every instance for {@code https://} with the JVM's TLS context shares, made on first use. */
    private static final class DefaultTls {
        static final HttpClient CLIENT = ManagementTransport.client(true, Optional.empty());
    }
}
