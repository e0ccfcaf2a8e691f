package io.github.retrytopology.runtime.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.retrytopology.model.topology.Binding;
import io.github.retrytopology.model.topology.Exchange;
import io.github.retrytopology.model.topology.Policy;
import io.github.retrytopology.model.topology.Queue;
import io.github.retrytopology.model.topology.Topology;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tests' hands on a broker's HTTP management API: virtual hosts, permissions, definitions, policies and any
 * path to read or delete. Given the nodes of a cluster, it asks the next when one refuses the connection. The
 * product's own client, {@code ManagementApi} in retry-operations, has only what plan and apply need.
 */
public final class TestManagement {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Patience.CONNECT).build();

    private final List<URI> bases;
    private final String authorization;

    private TestManagement(List<URI> bases, String username, String password) {
        this.bases = bases.stream().map(TestManagement::withoutCredentials).toList();
        this.authorization = "Basic " + Base64.getEncoder()
                .encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** The API at a URI with credentials, such as {@code http://guest:guest@127.0.0.1:15672}. */
    public static TestManagement of(URI uri) {
        String[] credentials = uri.getRawUserInfo().split(":", 2);
        return new TestManagement(List.of(uri), decode(credentials[0]), decode(credentials[1]));
    }

    /** The API of a cluster's nodes, each at a URI with the same credentials, tried in order. */
    public static TestManagement of(List<URI> nodes) {
        String[] credentials = nodes.get(0).getRawUserInfo().split(":", 2);
        return new TestManagement(nodes, decode(credentials[0]), decode(credentials[1]));
    }

    /** Encodes a path segment, such as the virtual host {@code /}, which is {@code %2F}. */
    public static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** A URI without the user and password it may carry. */
    public static URI withoutCredentials(URI uri) {
        if (uri.getRawUserInfo() == null) {
            return uri;
        }
        String authority = uri.getRawAuthority();
        return URI.create(uri.getScheme() + "://" + authority.substring(authority.indexOf('@') + 1) + "/");
    }

    /** Creates a virtual host in which {@code user} may do everything. */
    public void createVhost(String vhost, String user) throws IOException {
        send("PUT", "api/vhosts/" + encode(vhost), "{}");
        send("PUT", "api/permissions/" + encode(vhost) + "/" + encode(user),
                json(Map.of("configure", ".*", "write", ".*", "read", ".*")));
    }

    /** Puts a JSON document at a path, such as a runtime parameter at {@code api/parameters/shovel/VHOST/NAME}. */
    public void put(String path, String json) throws IOException {
        send("PUT", path, json);
    }

    /** Deletes a virtual host and everything in it; a missing one is not an error. */
    public void deleteVhost(String vhost) throws IOException {
        deleteIfPresent("api/vhosts/" + encode(vhost));
    }

    /** Imports definitions in the per-virtual-host format, the one without vhost fields. */
    public void importDefinitions(String vhost, String definitions) throws IOException {
        send("POST", "api/definitions/" + encode(vhost), definitions);
    }

    /** Imports definitions in the whole-cluster format, where every object names its virtual host. */
    public void importDefinitions(String definitions) throws IOException {
        send("POST", "api/definitions", definitions);
    }

    /**
     * Imports a topology into its virtual host as the broker imports the generated {@code definitions.json}: every
     * exchange, queue, binding and policy at once.
     */
    public void importTopology(Topology topology) throws IOException {
        importDefinitions(topology.vhost(), json(definitions(topology)));
    }

    /** Exports the definitions of a virtual host, as JSON. */
    public String exportDefinitions(String vhost) throws IOException {
        return get("api/definitions/" + encode(vhost));
    }

    /** Sets a policy in a virtual host, replacing one of the same name. */
    public void putPolicy(String vhost, Policy policy) throws IOException {
        send("PUT", "api/policies/" + encode(vhost) + "/" + encode(policy.name()), json(policy(policy)));
    }

    /** Deletes a policy; a missing one is not an error. */
    public void deletePolicy(String vhost, String name) throws IOException {
        deleteIfPresent("api/policies/" + encode(vhost) + "/" + encode(name));
    }

    /** Sets an operator policy, which applies beside the policy of a queue, replacing one of the same name. */
    public void putOperatorPolicy(String vhost, Policy policy) throws IOException {
        send("PUT", "api/operator-policies/" + encode(vhost) + "/" + encode(policy.name()), json(policy(policy)));
    }

    /** Deletes an operator policy; a missing one is not an error. */
    public void deleteOperatorPolicy(String vhost, String name) throws IOException {
        deleteIfPresent("api/operator-policies/" + encode(vhost) + "/" + encode(name));
    }

    /** Gets any path of the API, such as {@code api/queues/%2F/orders}, as JSON. */
    public String get(String path) throws IOException {
        return send("GET", path, null);
    }

    /** Deletes any path of the API, such as {@code api/connections/NAME}, which closes that connection. */
    public void delete(String path) throws IOException {
        send("DELETE", path, null);
    }

    /**
     * Closes, from the broker's side, the connections to a virtual host that carry this client-provided name, as an
     * operator does through the management UI; returns how many it closed.
     */
    public int closeConnections(String vhost, String connectionName) throws IOException {
        int closed = 0;
        JsonNode connections = JSON.readTree(get("api/vhosts/" + encode(vhost) + "/connections?disable_stats=true"));
        for (JsonNode connection : connections) {
            if (connectionName.equals(connection.path("client_properties").path("connection_name").asText())) {
                try {
                    delete("api/connections/" + encode(connection.path("name").asText()));
                    closed++;
                } catch (StatusException gone) {
                    // closed between the listing and the delete
                }
            }
        }
        return closed;
    }

    private void deleteIfPresent(String path) throws IOException {
        try {
            send("DELETE", path, null);
        } catch (StatusException e) {
            if (e.status != 404) {
                throw e;
            }
        }
    }

    private String send(String method, String path, String body) throws IOException {
        // an import of thousands of objects takes RabbitMQ minutes
        Duration timeout = path.startsWith("api/definitions") ? Duration.ofMinutes(10) : Patience.WAIT;
        ConnectException refused = new ConnectException("no management API answered: " + bases);
        for (URI base : bases) {
            HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(timeout)
                    .header("Authorization", authorization)
                    .header("Content-Type", "application/json")
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
            HttpResponse<String> response;
            try {
                response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            } catch (ConnectException e) {
                refused.addSuppressed(e);
                continue;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException(method + " " + path + " was interrupted");
            }
            if (response.statusCode() >= 300) {
                throw new StatusException(method + " " + base.resolve(path), response.statusCode(), response.body());
            }
            return response.body();
        }
        throw refused;
    }

    private static Map<String, Object> exchange(Exchange exchange) {
        return ordered("name", exchange.name(), "type", exchange.type(), "durable", exchange.durable(),
                "auto_delete", false, "internal", false, "arguments", Map.of());
    }

    private static Map<String, Object> queue(Queue queue) {
        return ordered("name", queue.name(), "durable", true, "auto_delete", false, "arguments", queue.arguments());
    }

    private static Map<String, Object> binding(Binding binding) {
        return ordered("source", binding.exchange(), "destination", binding.queue(), "destination_type", "queue",
                "routing_key", binding.routingKey(), "arguments", Map.of());
    }

    private static Map<String, Object> policy(Policy policy) {
        return ordered("name", policy.name(), "pattern", policy.pattern(), "apply-to", policy.applyTo(),
                "definition", policy.definition(), "priority", policy.priority());
    }

    /**
     * The objects of a topology as the broker's definitions write them, keys in the broker's order, for imports and
     * for comparing with an export.
     */
    public static Map<String, List<Map<String, Object>>> definitions(Topology topology) {
        return Map.of("exchanges", topology.exchanges().stream().map(TestManagement::exchange).toList(),
                "queues", topology.queues().stream().map(TestManagement::queue).toList(),
                "bindings", topology.bindings().stream().map(TestManagement::binding).toList(),
                "policies", topology.policies().stream().map(TestManagement::policy).toList());
    }

    private static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }

    /** The API answered with an error status. */
    public static final class StatusException extends IOException {

        private static final long serialVersionUID = 1L;

        private final int status;

        StatusException(String request, int status, String body) {
            super(request + " answered " + status + ": " + body);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }
}
