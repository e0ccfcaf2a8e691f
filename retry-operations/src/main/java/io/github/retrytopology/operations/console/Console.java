package io.github.retrytopology.operations.console;

import static java.util.Objects.requireNonNull;

import com.sun.net.httpserver.HttpServer;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.operations.broker.BrokerAccess;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The on-call console: a web page, served from this process, that shows the spec's services with their live
 * depths and rates, the plan's drift and a picture of the topology; reads each parking lot by failure; and replays or
 * purges parked messages with the same {@link io.github.retrytopology.runtime.parkinglot.ParkingLot} client the
 * command line uses.
 *
 * <p>It is served by the JDK's own HTTP server: a console for one person on call answers a few requests a second,
 * which needs no more, and the command line's jar stays free of a web stack. It has no login of its own, so it
 * listens on the loopback address unless told otherwise, and elsewhere only behind an authenticating proxy that names
 * each request's user in a header ({@link OperatorSource.ProxyHeader}); pages must send a token of this process and
 * operator with every action, which another site's page cannot read, and requests must name this host, which defeats
 * DNS rebinding.
 */
public final class Console implements AutoCloseable {

    private static final int THREADS = 4;

    private final HttpServer server;
    private final ExecutorService threads;
    private final AmqpConnection amqp;
    private final Overview overview;
    private final Jobs jobs;

    private Console(HttpServer server, ExecutorService threads, AmqpConnection amqp, Overview overview, Jobs jobs) {
        this.server = server;
        this.threads = threads;
        this.amqp = amqp;
        this.overview = overview;
        this.jobs = jobs;
    }

    /**
     * Starts a console of a spec on the broker that {@code access} reaches.
     *
     * @param specName the spec file's name, as the pages show it
     * @throws IOException if it cannot listen on the address and port
     */
    public static Console start(RetrySpec spec, String specName, BrokerAccess access, ConsoleSettings settings)
            throws IOException {
        return start(spec, specName, access, settings, Clock.systemUTC());
    }

    static Console start(RetrySpec spec, String specName, BrokerAccess access, ConsoleSettings settings, Clock clock)
            throws IOException {
        requireNonNull(spec, "spec");
        requireNonNull(settings, "settings");
        AmqpConnection amqp = new AmqpConnection(access, spec.vhost());
        Overview overview = new Overview(spec, access, amqp, System::nanoTime);
        Jobs jobs = new Jobs(clock);
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(settings.address(), settings.port()), 0);
        } catch (IOException e) {
            amqp.close();
            overview.close();
            jobs.close();
            throw new IOException("cannot listen on " + settings.address().getHostAddress() + ":" + settings.port()
                    + ": " + e.getMessage(), e);
        }
        AtomicInteger count = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(THREADS, work -> {
            Thread thread = new Thread(work, "retry-console-http-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        RequestGuard guard = new RequestGuard(settings, new SessionTokens(new SecureRandom()),
                server.getAddress().getPort());
        ConsoleApi api = new ConsoleApi(spec, specName, settings, guard, overview, jobs,
                new ParkingLotResource(spec, specName, settings, amqp, jobs, clock));
        server.createContext("/", api);
        server.setExecutor(threads);
        server.start();
        return new Console(server, threads, amqp, overview, jobs);
    }

    /** Where a browser opens it. */
    public URI uri() {
        InetSocketAddress address = server.getAddress();
        String host = address.getAddress().getHostAddress();
        return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort() + "/");
    }

    /** Stops serving; a replay that runs stops between two messages, and what it has not replayed stays parked. */
    @Override
    public void close() {
        server.stop(0);
        jobs.close();
        overview.close();
        amqp.close();
        threads.shutdownNow();
        try {
            threads.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
