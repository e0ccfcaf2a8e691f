package io.github.retrytopology.runtime.topology;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.topology.Policy;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The parts of RabbitMQ's HTTP management API that AMQP cannot reach: policies, virtual hosts, permissions and
 * definitions. Needs the {@code rabbitmq_management} plugin.
 */
public final class ManagementApi {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient http;
    private final URI base;
    private final String authorization;

    private ManagementApi(URI base, String username, String password) {
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build();
        String root = base.toString();
        this.base = URI.create(root.endsWith("/") ? root : root + "/");
        this.authorization = "Basic " + Base64.getEncoder()
                .encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The API at {@code base}, such as {@code http://127.0.0.1:15672}, as this user.
     */
    public static ManagementApi of(URI base, String username, String password) {
        return new ManagementApi(requireNonNull(base, "base"), requireNonNull(username, "username"),
                requireNonNull(password, "password"));
    }

    /** The API at a URI that carries its credentials, such as {@code http://guest:guest@127.0.0.1:15672}. */
    public static ManagementApi of(URI uri) {
        String userInfo = uri.getRawUserInfo();
        if (userInfo == null || !userInfo.contains(":")) {
            throw new IllegalArgumentException("the management URI needs user:password@ before its host: " + uri);
        }
        String[] credentials = userInfo.split(":", 2);
        URI base = URI.create(uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort())
                + (uri.getRawPath() == null ? "" : uri.getRawPath()));
        return of(base, decode(credentials[0]), decode(credentials[1]));
    }

    /** Sets a policy in a virtual host, replacing one of the same name. */
    public void putPolicy(String vhost, Policy policy) throws IOException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("pattern", policy.pattern());
        body.put("definition", policy.definition());
        body.put("priority", policy.priority());
        body.put("apply-to", policy.applyTo());
        send("PUT", "api/policies/" + encode(vhost) + "/" + encode(policy.name()), Json.write(body));
    }

    /** Creates a virtual host, or leaves it as it is if it exists. */
    public void createVhost(String vhost) throws IOException {
        send("PUT", "api/vhosts/" + encode(vhost), "{}");
    }

    /** Deletes a virtual host and everything in it; a missing one is not an error. */
    public void deleteVhost(String vhost) throws IOException {
        try {
            send("DELETE", "api/vhosts/" + encode(vhost), null);
        } catch (ManagementApiException e) {
            if (e.status() != 404) {
                throw e;
            }
        }
    }

    /** Lets a user configure, write and read everything in a virtual host. */
    public void grantAll(String vhost, String user) throws IOException {
        send("PUT", "api/permissions/" + encode(vhost) + "/" + encode(user),
                Json.write(Map.of("configure", ".*", "write", ".*", "read", ".*")));
    }

    /** Imports definitions in the per-virtual-host format, the one without vhost fields. */
    public void importDefinitions(String vhost, String definitions) throws IOException {
        send("POST", "api/definitions/" + encode(vhost), definitions);
    }

    /** Imports definitions in the whole-cluster format, where every object names its virtual host. */
    public void importDefinitions(String definitions) throws IOException {
        send("POST", "api/definitions", definitions);
    }

    /** Exports the definitions of a virtual host, as JSON. */
    public String exportDefinitions(String vhost) throws IOException {
        return get("api/definitions/" + encode(vhost));
    }

    /** Gets any path of the API, such as {@code api/queues/%2F/cdn-purge}, as JSON. */
    public String get(String path) throws IOException {
        return send("GET", path, null);
    }

    /** Deletes any path of the API, such as {@code api/connections/NAME}, which closes that connection. */
    public void delete(String path) throws IOException {
        send("DELETE", path, null);
    }

    /** Encodes a path segment, such as the virtual host {@code /}, which is {@code %2F}. */
    public static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String decode(String text) {
        return java.net.URLDecoder.decode(text, StandardCharsets.UTF_8);
    }

    private String send(String method, String path, String json) throws IOException {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path))
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
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(method + " " + path + " was interrupted");
        }
        if (response.statusCode() >= 300) {
            throw new ManagementApiException(method + " " + base.resolve(path), response.statusCode(), response.body());
        }
        return response.body();
    }
}
