package io.github.retrytopology.operations.console;

import static org.awaitility.Awaitility.await;

import io.github.retrytopology.runtime.testing.Patience;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real nginx in front of a console, as docs/console.md configures it: HTTP basic auth for one user, who is named
 * to the console in {@value #HEADER}. It runs from a directory of its own (configuration, password file, pid, logs,
 * temporary files) on a free port of 127.0.0.1, in the foreground, until closed.
 *
 * <p>It needs Debian's {@code nginx}; without it a test is skipped, unless {@value #REQUIRED} is set, as
 * {@code .ci/run} sets it after installing it.
 */
final class NginxProxy implements AutoCloseable {

    /** Set to anything to fail instead of skipping when there is no nginx. */
    static final String REQUIRED = "RETRY_TEST_PROXY_REQUIRED";
    static final String HEADER = "X-Remote-User";
    private static final Path NGINX = Path.of(System.getProperty("console.nginx", "/usr/sbin/nginx"));

    private final Process process;
    private final URI uri;

    private NginxProxy(Process process, URI uri) {
        this.process = process;
        this.uri = uri;
    }

    /** Skips the test where there is no nginx, or fails it if {@value #REQUIRED} is set. */
    static void assumeInstalled() {
        boolean installed = Files.isExecutable(NGINX);
        if (!installed && System.getenv(REQUIRED) != null) {
            throw new IllegalStateException("no " + NGINX + ", and " + REQUIRED + " is set: install it with apt-get "
                    + "install nginx");
        }
        Assumptions.assumeTrue(installed, "no " + NGINX + " here (Debian's nginx): the test of the console behind a "
                + "proxy is skipped");
    }

    /** Starts nginx in {@code directory} in front of the console at {@code consolePort}, for {@code user}. */
    static NginxProxy start(Path directory, int consolePort, String user, String password) throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        Files.writeString(directory.resolve("htpasswd"), user + ":{SHA}" + Base64.getEncoder().encodeToString(
                MessageDigest.getInstance("SHA-1").digest(password.getBytes(StandardCharsets.UTF_8))) + "\n");
        Path temp = Files.createDirectories(directory.resolve("temp"));
        // As root, its workers would otherwise be nobody, who cannot read this directory; as anyone else, ignored.
        String conf = """
                user %1$s;
                worker_processes 1;
                pid %2$s/nginx.pid;
                error_log %2$s/error.log info;
                events { worker_connections 64; }
                http {
                    access_log %2$s/access.log;
                    client_body_temp_path %3$s/body;
                    proxy_temp_path %3$s/proxy;
                    fastcgi_temp_path %3$s/fastcgi;
                    uwsgi_temp_path %3$s/uwsgi;
                    scgi_temp_path %3$s/scgi;
                    server {
                        listen 127.0.0.1:%4$d;
                        location / {
                            auth_basic "retry console";
                            auth_basic_user_file %2$s/htpasswd;
                            proxy_pass http://127.0.0.1:%5$d;
                            proxy_set_header %6$s $remote_user;
                            proxy_set_header X-Forwarded-Host $http_host;
                            proxy_set_header Authorization "";
                        }
                    }
                }
                """.formatted(System.getProperty("user.name"), directory, temp, port, consolePort, HEADER);
        Path file = directory.resolve("nginx.conf");
        Files.writeString(file, conf);
        Path out = directory.resolve("nginx.out");
        Process process = new ProcessBuilder(NGINX.toString(), "-p", directory.toString(), "-e",
                directory.resolve("error.log").toString(), "-c", file.toString(), "-g", "daemon off;")
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        NginxProxy proxy = new NginxProxy(process, URI.create("http://127.0.0.1:" + port + "/"));
        try {
            await().atMost(Patience.WAIT).until(() -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException("nginx stopped (" + process.exitValue() + "): "
                            + Files.readString(out) + Files.readString(directory.resolve("error.log")));
                }
                try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                    return true;
                } catch (IOException notYet) {
                    return false;
                }
            });
        } catch (RuntimeException e) {
            proxy.close();
            throw e;
        }
        return proxy;
    }

    /** Where a browser reaches the console through it. */
    URI uri() {
        return uri;
    }

    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** Stops it: SIGTERM, nginx's fast shutdown. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
