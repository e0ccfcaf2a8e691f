package io.github.retrytopology.runtime.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.stream.Stream;

/**
 * A RabbitMQ node of the tests' own, started from an {@link Installation} (the machine's RabbitMQ, or a 4.x that
 * {@code .ci/test-broker} installed) with its own node name, ports, Erlang cookie, configuration and data
 * directory, so that tests can stop, kill, restart or reconfigure it without touching the broker that other tests
 * and programs use.
 * Its management plugin is on. Every node is killed and its directory deleted when the JVM ends, if not before.
 *
 * <pre>{@code
 * try (LocalNode node = LocalNode.start("chaos")) {
 *     ConnectionFactory factory = node.broker().connectionFactory("/");
 *     node.restart();
 * }
 * }</pre>
 */
public final class LocalNode implements PrivateBroker, NodeControl {

    /** Set to keep the directories, logs included, of the nodes a run started, to read after it. */
    public static final String KEEP_VARIABLE = "RETRY_TEST_KEEP_NODES";
    /** The file in a node's directory that names the JVM which started the node, by its process id. */
    private static final String OWNER = "owner.pid";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Set<LocalNode> RUNNING = ConcurrentHashMap.newKeySet();

    /**
     * The ports of this JVM's nodes, until each node is closed. Checking that a port binds is not enough: two nodes
     * starting at once could pick the same one, and a node started while another is down could take its ports, so
     * that one of them fails to boot while its port answers, with the other node behind it.
     */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(LocalNode::destroy), "local-nodes"));
    }

    private final Installation installation;
    private final String name;
    private final Path home;
    private final int amqpPort;
    private final int managementPort;
    private final int distributionPort;
    private final String cookie;
    private final List<String> settings;
    private final List<String> rabbitEnvironment;
    private final List<String> plugins;

    private LocalNode(Installation installation, String name, Path home, int amqpPort, int managementPort, int distributionPort,
            String cookie, List<String> settings, List<String> rabbitEnvironment, List<String> plugins) {
        this.installation = installation;
        this.name = name;
        this.home = home;
        this.amqpPort = amqpPort;
        this.managementPort = managementPort;
        this.distributionPort = distributionPort;
        this.cookie = cookie;
        this.settings = List.copyOf(settings);
        this.rabbitEnvironment = List.copyOf(rabbitEnvironment);
        this.plugins = List.copyOf(plugins);
    }

    /** Whether there is a RabbitMQ installation to start nodes from. */
    public static boolean available() {
        return Installation.find().isPresent();
    }

    /** Starts a node whose name begins with {@code purpose}, and waits until it takes connections. */
    public static LocalNode start(String purpose) throws IOException {
        return start(purpose, "retry-test-" + UUID.randomUUID());
    }

    /**
     * Starts a node with this Erlang cookie, which nodes that are to form a cluster share.
     *
     * @param purpose the beginning of the node's name, such as {@code chaos}
     */
    public static LocalNode start(String purpose, String cookie) throws IOException {
        return start(purpose, cookie, List.of());
    }

    /**
     * Starts a node with this Erlang cookie and these lines added to its {@code rabbitmq.conf}, such as
     * {@code queue_leader_locator = balanced}.
     */
    public static LocalNode start(String purpose, String cookie, List<String> settings) throws IOException {
        return start(purpose, cookie, settings, List.of());
    }

    /**
     * Starts a node with these lines added to its {@code rabbitmq.conf}, and these terms in its
     * {@code advanced.config} for the {@code rabbit} application, such as
     * {@code {dead_letter_worker_publisher_confirm_timeout, 2000}}, which {@code rabbitmq.conf} cannot set.
     */
    public static LocalNode start(String purpose, String cookie, List<String> settings, List<String> rabbitEnvironment)
            throws IOException {
        return start(purpose, cookie, settings, rabbitEnvironment, List.of());
    }

    /**
     * Starts a node with these plugins enabled besides the management plugin, such as {@code rabbitmq_shovel}, which
     * the tests never enable on a broker they did not start.
     */
    public static LocalNode withPlugins(String purpose, List<String> plugins) throws IOException {
        return start(purpose, "retry-test-" + UUID.randomUUID(), List.of(), List.of(), plugins);
    }

    private static LocalNode start(String purpose, String cookie, List<String> settings, List<String> rabbitEnvironment,
            List<String> plugins) throws IOException {
        Installation installation = Installation.find().orElseThrow(() -> new IllegalStateException("No RabbitMQ "
                + "installation to start a node of the tests' own: install RabbitMQ, set "
                + Installation.SBIN_VARIABLE + " to the directory of rabbitmq-server, or run .ci/test-broker"));
        Path nodes = installation.nodesDirectory();
        reapLeftovers(nodes);
        String name = purpose + "-" + UUID.randomUUID().toString().substring(0, 8) + "@localhost";
        Path home = nodes.resolve(name);
        List<Integer> ports = freePorts(3);
        LocalNode node = new LocalNode(installation, name, home, ports.get(0), ports.get(1), ports.get(2), cookie, settings,
                rabbitEnvironment, plugins);
        // Running before its directory exists: another node starting at the same time must not reap it.
        RUNNING.add(node);
        try {
            node.prepare();
            node.launch();
        } catch (IOException | RuntimeException e) {
            node.close();
            throw e;
        }
        return node;
    }

    /** The node's name, such as {@code chaos-1a2b3c4d@localhost}. */
    public String name() {
        return name;
    }

    /** The broker this node is, as the tests connect to it (as guest, from 127.0.0.1). */
    @Override
    public Broker broker() {
        return Broker.of(this, URI.create("amqp://guest:guest@127.0.0.1:" + amqpPort),
                URI.create("http://guest:guest@127.0.0.1:" + managementPort));
    }

    /** The installation it runs from. */
    public Installation installation() {
        return installation;
    }

    /** The port of its AMQP listener. */
    public int amqpPort() {
        return amqpPort;
    }

    /**
     * Stops the node gracefully, as an operator would, and waits for its VM to end; {@link #startAgain()} brings
     * it back with its data.
     */
    @Override
    public void stop() throws IOException {
        Optional<ProcessHandle> vm = pid().flatMap(ProcessHandle::of);
        ctl("stop");
        awaitEnd(vm);
    }

    /** Kills the node's Erlang VM with SIGKILL, as a crash would. */
    @Override
    public void kill() throws IOException {
        Optional<ProcessHandle> vm = pid().flatMap(ProcessHandle::of);
        vm.ifPresent(ProcessHandle::destroyForcibly);
        awaitEnd(vm);
    }

    /** Starts the node again after {@link #stop()} or {@link #kill()}, with the data it had. */
    @Override
    public void startAgain() throws IOException {
        launch();
    }

    /** Whether the node takes AMQP connections. */
    public boolean isRunning() {
        return accepts(amqpPort);
    }

    /**
     * Runs {@code rabbitmqctl} against this node, such as {@code ctl("set_vm_memory_high_watermark", "0.0001")},
     * and returns what it printed.
     */
    @Override
    public String ctl(String... arguments) throws IOException {
        List<String> command = new ArrayList<>(List.of("-n", name, "-q"));
        command.addAll(List.of(arguments));
        return run(installation.command("rabbitmqctl", command), Duration.ofSeconds(60));
    }

    @Override
    public String share(String name, String content) throws IOException {
        Path file = home.resolve(name);
        Files.writeString(file, content, StandardCharsets.UTF_8);
        return installation.seen(file);
    }

    /** Makes this node join the cluster of another, which must share its cookie. */
    public void joinCluster(LocalNode other) throws IOException {
        ctl("stop_app");
        ctl("join_cluster", other.name);
        ctl("start_app");
        ctl("await_startup");
    }

    /** Kills the node and deletes its directory. */
    @Override
    public void close() {
        destroy();
        // Once: a second close must not give back ports that another node has since been handed.
        if (RUNNING.remove(this)) {
            release(List.of(amqpPort, managementPort, distributionPort));
        }
    }

    private void destroy() {
        pid().flatMap(ProcessHandle::of).ifPresent(process -> {
            process.destroyForcibly();
            process.onExit().orTimeout(10, TimeUnit.SECONDS).exceptionally(e -> process).join();
        });
        if (System.getenv(KEEP_VARIABLE) == null) {
            deleteRecursively(home);
        }
    }

    private void prepare() throws IOException {
        Files.createDirectories(home);
        Files.writeString(home.resolve(OWNER), Long.toString(ProcessHandle.current().pid()));
        Path cookieFile = home.resolve(".erlang.cookie");
        Files.writeString(cookieFile, cookie, StandardCharsets.US_ASCII);
        Files.setPosixFilePermissions(cookieFile, PosixFilePermissions.fromString("r--------"));
        List<String> enabled = new ArrayList<>(List.of("rabbitmq_management"));
        enabled.addAll(plugins);
        Files.writeString(home.resolve("enabled_plugins"), "[" + String.join(", ", enabled) + "].\n");
        Files.writeString(home.resolve("rabbitmq-env.conf"), "");
        List<String> conf = new ArrayList<>(List.of(
                "listeners.tcp.1 = 127.0.0.1:" + amqpPort,
                "management.tcp.ip = 127.0.0.1",
                "management.tcp.port = " + managementPort,
                "loopback_users.guest = true",
                // Alarms are the tests' to raise: a nearly full disk must not block publishers.
                "disk_free_limit.absolute = 1MB"));
        conf.addAll(settings);
        conf.add("");
        Files.writeString(home.resolve("rabbitmq.conf"), String.join("\n", conf));
        Files.writeString(home.resolve("advanced.config"), "[{rabbit, [" + String.join(", ", rabbitEnvironment) + "]}].\n");
    }

    private void launch() throws IOException {
        ProcessBuilder builder = new ProcessBuilder(installation.command("rabbitmq-server", List.of("-detached")))
                .directory(home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(home.resolve("start.out").toFile());
        environment(builder.environment());
        Process process = builder.start();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("rabbitmq-server -detached did not return for node " + name);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting node " + name, e);
        }
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!(accepts(amqpPort) && accepts(managementPort))) {
            if (System.nanoTime() > deadline) {
                throw new IOException("node " + name + " did not start within " + START_TIMEOUT + logTail());
            }
            pause(100);
        }
        // RabbitMQ 4.3 opens its listeners before it has finished booting.
        try {
            ctl("await_startup");
        } catch (IOException e) {
            throw new IOException(e.getMessage() + logTail(), e);
        }
    }

    /** Waits until the node's VM has ended: a node started again before then cannot take its name. */
    private void awaitEnd(Optional<ProcessHandle> vm) throws IOException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (vm.map(ProcessHandle::isAlive).orElse(false) || accepts(amqpPort)) {
            if (System.nanoTime() > deadline) {
                throw new IOException("node " + name + " did not stop within " + START_TIMEOUT);
            }
            pause(50);
        }
    }

    private Optional<Long> pid() {
        try {
            return Optional.of(Long.parseLong(Files.readString(home.resolve("pid")).trim()));
        } catch (IOException | NumberFormatException none) {
            return Optional.empty();
        }
    }

    private void environment(Map<String, String> environment) {
        environment.keySet().removeIf(key -> key.startsWith("RABBITMQ_") || key.startsWith("ERL_"));
        environment.put("HOME", installation.seen(home));
        environment.put("RABBITMQ_NODENAME", name);
        environment.put("RABBITMQ_DIST_PORT", String.valueOf(distributionPort));
        environment.put("RABBITMQ_CONF_ENV_FILE", installation.seen(home.resolve("rabbitmq-env.conf")));
        environment.put("RABBITMQ_CONFIG_FILE", installation.seen(home.resolve("rabbitmq.conf")));
        environment.put("RABBITMQ_ADVANCED_CONFIG_FILE", installation.seen(home.resolve("advanced.config")));
        environment.put("RABBITMQ_ENABLED_PLUGINS_FILE", installation.seen(home.resolve("enabled_plugins")));
        environment.put("RABBITMQ_MNESIA_BASE", installation.seen(home.resolve("mnesia")));
        environment.put("RABBITMQ_LOG_BASE", installation.seen(home.resolve("log")));
        environment.put("RABBITMQ_PID_FILE", installation.seen(home.resolve("pid")));
        environment.put("ERL_EPMD_ADDRESS", "127.0.0.1");
        environment.putAll(installation.environment());
    }

    private String run(List<String> command, Duration timeout) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile()).redirectErrorStream(true);
        environment(builder.environment());
        Process process = builder.start();
        try {
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not end within " + timeout);
            }
            String printed = new String(output, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new IOException(String.join(" ", command) + " failed (" + process.exitValue() + "): " + printed);
            }
            return printed;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + String.join(" ", command), e);
        }
    }

    /**
     * Kills nodes that a JVM which ended abruptly left running, and deletes their directories. A node's directory
     * names the JVM that started it ({@value #OWNER}): another JVM's tests run beside this one (failsafe's forks, or
     * another module's), and a directory whose JVM lives is theirs, however new. One without the file is being
     * made, or was left by a JVM that died making it: it is left alone until it is an hour old.
     */
    static synchronized void reapLeftovers(Path nodes) throws IOException {
        if (!Files.isDirectory(nodes)) {
            return;
        }
        try (Stream<Path> homes = Files.list(nodes)) {
            for (Path home : homes.toList()) {
                if (RUNNING.stream().anyMatch(node -> node.home.equals(home)) || ownerLives(home)) {
                    continue;
                }
                try {
                    long pid = Long.parseLong(Files.readString(home.resolve("pid")).trim());
                    ProcessHandle.of(pid).filter(process -> process.info().command().orElse("").contains("beam"))
                            .ifPresent(ProcessHandle::destroyForcibly);
                } catch (IOException | NumberFormatException noPid) {
                    // never started, or long gone
                }
                if (System.getenv(KEEP_VARIABLE) == null) {
                    deleteRecursively(home);
                }
            }
        }
    }

    /** Whether the JVM that made this node's directory still runs, or may: the directory is being made. */
    private static boolean ownerLives(Path home) {
        try {
            long owner = Long.parseLong(Files.readString(home.resolve(OWNER)).trim());
            return ProcessHandle.of(owner).map(ProcessHandle::isAlive).orElse(false);
        } catch (NoSuchFileException unowned) {
            try {
                return Files.getLastModifiedTime(home).toInstant().isAfter(Instant.now().minus(Duration.ofHours(1)));
            } catch (IOException gone) {
                return true; // deleted meanwhile, by its JVM: nothing to reap
            }
        } catch (IOException | NumberFormatException unreadable) {
            return true; // being written: a JVM that lives is writing it
        }
    }

    /**
     * Ports that nothing listens on, below the kernel's range of ephemeral ports: a port in that range may be handed
     * to a client connection's end while the node is down between a stop and a start, and the node then cannot
     * listen on it again.
     */
    static List<Integer> freePorts(int count) throws IOException {
        int below = ephemeralPortsStart();
        return freePorts(count, () -> ThreadLocalRandom.current().nextInt(10_000, below));
    }

    /**
     * Free ports from these candidates, handed out until {@link #release}d: a port that no socket holds may still
     * be a node's, down between a kill and a start again, or starting and not yet listening.
     */
    static List<Integer> freePorts(int count, IntSupplier candidates) {
        List<Integer> ports = new ArrayList<>();
        while (ports.size() < count) {
            int port = candidates.getAsInt();
            if (HANDED_OUT.add(port)) {
                if (bindable(port)) {
                    ports.add(port);
                } else {
                    HANDED_OUT.remove(port);
                }
            }
        }
        return ports;
    }

    /** Gives ports back, once the node that had them is gone for good. */
    static void release(List<Integer> ports) {
        HANDED_OUT.removeAll(ports);
    }

    /**
     * The first port of the kernel's ephemeral range, 32768 where it cannot be read. (A sysctl file must be read in one
     * piece: {@code Files.readString}, which sizes its first read by the file's size of 0, gets only its first byte.)
     */
    static int ephemeralPortsStart() {
        try {
            return Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim()
                    .split("\\s+")[0]);
        } catch (IOException | RuntimeException unreadable) {
            return 32_768;
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException taken) {
            return false;
        }
    }

    /** The end of the node's start output and logs, for a failure message; they are deleted with the node. */
    private String logTail() {
        StringBuilder tail = new StringBuilder();
        try (Stream<Path> files = Files.walk(home)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".log") || path.endsWith("start.out"))
                    .toList()) {
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                tail.append("\n--- ").append(home.relativize(file)).append(" (last lines) ---\n")
                        .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size())));
            }
        } catch (IOException | UncheckedIOException e) {
            tail.append("\n(the node's logs could not be read: ").append(e.getMessage()).append(")");
        }
        return tail.toString();
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void pause(long millis) throws IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not delete " + root, e);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
