package io.github.retrytopology.operations.console;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Passes every request through to the real management API, but holds those that export a virtual host's
 * definitions, which only the plan asks for, until {@link #release()}: so a test sees the console while it reads
 * its first plan, for as long as it likes.
 */
final class HeldPlanProxy implements AutoCloseable {

    private static final List<String> PASSED_HEADERS = List.of("Authorization", "Accept", "Content-Type");

    private final URI target;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final HttpClient http = HttpClient.newHttpClient();
    private final CountDownLatch released = new CountDownLatch(1);

    private HeldPlanProxy(URI target) throws IOException {
        this.target = target;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::pass);
        server.setExecutor(threads);
        server.start();
    }

    /** A proxy of the management API at {@code target} (its credentials, if any, are left to the client). */
    static HeldPlanProxy of(URI target) throws IOException {
        return new HeldPlanProxy(URI.create(target.getScheme() + "://" + target.getHost() + ":" + target.getPort() + "/"));
    }

    /** Where to point the console: the proxy's address, without credentials. */
    String uri() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
    }

    /** Lets the plan's requests through, those held and those to come. */
    void release() {
        released.countDown();
    }

    private void pass(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getRawPath();
            if (path.startsWith("/api/definitions/")) {
                released.await();
            }
            String query = exchange.getRequestURI().getRawQuery();
            HttpRequest.Builder request = HttpRequest.newBuilder(target.resolve(path + (query == null ? "" : "?" + query)))
                    .method(exchange.getRequestMethod(),
                            HttpRequest.BodyPublishers.ofByteArray(exchange.getRequestBody().readAllBytes()));
            for (String header : PASSED_HEADERS) {
                String value = exchange.getRequestHeaders().getFirst(header);
                if (value != null) {
                    request.header(header, value);
                }
            }
            HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            response.headers().firstValue("Content-Type")
                    .ifPresent(type -> exchange.getResponseHeaders().set("Content-Type", type));
            exchange.sendResponseHeaders(response.statusCode(), response.body().length == 0 ? -1 : response.body().length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(response.body());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        release();
        server.stop(0);
        threads.shutdownNow();
    }
}
