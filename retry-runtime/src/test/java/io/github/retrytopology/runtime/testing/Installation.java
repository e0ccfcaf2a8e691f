package io.github.retrytopology.runtime.testing;

import io.github.retrytopology.model.topology.BrokerVersion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * A RabbitMQ installation that the tests start nodes of their own from: the machine's, or one in a root directory
 * that {@code .ci/test-broker} made (a Debian chroot holding RabbitMQ 4.0 or 4.3), whose nodes run inside it with
 * an epmd of their own.
 *
 * <p>Found in this order: {@value #ROOT_VARIABLE}, then {@value #SBIN_VARIABLE}, then Debian's
 * {@code /usr/lib/rabbitmq/bin}, then {@code rabbitmq-server} on the {@code PATH}.
 */
public final class Installation {

    /** The root directory of an installation made by {@code .ci/test-broker}. */
    public static final String ROOT_VARIABLE = "RETRY_TEST_RABBITMQ_ROOT";
    /** Where the machine's RabbitMQ scripts are, if not in one of the usual places. */
    public static final String SBIN_VARIABLE = "RETRY_TEST_RABBITMQ_SBIN";

    /** Where Debian keeps the scripts that run as the calling user, in a root directory as on the machine. */
    private static final Path DEBIAN_SBIN = Path.of("/usr/lib/rabbitmq/bin");
    /** The directory a RabbitMQ release unpacks into, before its version. */
    private static final String SERVER_DIRECTORY = "rabbitmq_server-";
    /** What {@code .ci/test-broker} writes for the nodes of its installation: their epmd's port. */
    private static final Path SETTINGS = Path.of("etc/rabbitmq/retry-test.env");

    private final Optional<Path> root;
    private final Path sbin;
    private final Map<String, String> environment;

    private Installation(Optional<Path> root, Path sbin, Map<String, String> environment) {
        this.root = root;
        this.sbin = sbin;
        this.environment = Map.copyOf(environment);
    }

    /** The installation the environment names, or the machine's; empty if there is none. */
    public static Optional<Installation> find() {
        String root = System.getenv(ROOT_VARIABLE);
        if (root != null) {
            return Optional.of(inRoot(Path.of(root)));
        }
        String configured = System.getenv(SBIN_VARIABLE);
        if (configured != null) {
            return Optional.of(new Installation(Optional.empty(), Path.of(configured), Map.of()));
        }
        Stream<Path> candidates = Stream.concat(Stream.of(DEBIAN_SBIN),
                Stream.of(System.getenv().getOrDefault("PATH", "").split(":")).filter(dir -> !dir.isEmpty())
                        .map(Path::of));
        return candidates.filter(dir -> Files.isExecutable(dir.resolve("rabbitmq-server"))
                        && !isSwitchingWrapper(dir.resolve("rabbitmq-server")))
                .findFirst()
                .map(sbin -> new Installation(Optional.empty(), sbin, Map.of()));
    }

    /** The installation in a root directory that {@code .ci/test-broker} made, ready to start nodes from. */
    static Installation inRoot(Path root) {
        Path absolute = root.toAbsolutePath().normalize();
        if (!Files.isExecutable(absolute.resolve(DEBIAN_SBIN.toString().substring(1)).resolve("rabbitmq-server"))) {
            throw new IllegalStateException(ROOT_VARIABLE + " names " + absolute + ", which holds no RabbitMQ: "
                    + "install one with .ci/test-broker install 4.3 (or 4.0)");
        }
        if (!Files.isDirectory(absolute.resolve("proc/self"))) {
            throw new IllegalStateException("the RabbitMQ in " + absolute + " is not started: its /proc is not "
                    + "mounted. Run .ci/test-broker start 4.3 (or 4.0) first");
        }
        Map<String, String> environment = new LinkedHashMap<>();
        try {
            Properties settings = new Properties();
            settings.load(Files.newBufferedReader(absolute.resolve(SETTINGS), StandardCharsets.UTF_8));
            settings.stringPropertyNames().forEach(key -> environment.put(key, settings.getProperty(key)));
        } catch (IOException e) {
            throw new IllegalStateException("the RabbitMQ in " + absolute + " has no " + SETTINGS + ": run "
                    + ".ci/test-broker start 4.3 (or 4.0) to write it", e);
        }
        return new Installation(Optional.of(absolute), DEBIAN_SBIN, environment);
    }

    /**
     * Where the nodes that tests start from here keep their directories: {@code target/rabbitmq-nodes} of the
     * module, or a directory of the module's own inside the root, where the nodes can reach it.
     */
    Path nodesDirectory() {
        Path target = Path.of("target", "rabbitmq-nodes").toAbsolutePath();
        return root.map(dir -> dir.resolve("var/tmp/retry-test-nodes")
                        .resolve(Integer.toHexString(target.toString().hashCode())))
                .orElse(target);
    }

    /** A path of this machine as the installation's nodes see it. */
    String seen(Path path) {
        return root.map(dir -> "/" + dir.relativize(path.toAbsolutePath())).orElse(path.toString());
    }

    /** The command line that runs one of the installation's scripts, such as {@code rabbitmqctl}. */
    List<String> command(String script, List<String> arguments) {
        List<String> command = new ArrayList<>();
        root.ifPresent(dir -> command.addAll(List.of("chroot", dir.toString())));
        command.add(sbin.resolve(script).toString());
        command.addAll(arguments);
        return command;
    }

    /** What the installation's scripts need in their environment besides the node's own settings. */
    Map<String, String> environment() {
        return environment;
    }

    /**
     * Which RabbitMQ it is, read from the directory its scripts link into ({@code rabbitmq_server-3.10.8}), else
     * from {@code rabbitmqctl version}.
     */
    public BrokerVersion version() throws IOException {
        Path script = onHost(sbin.resolve("rabbitmq-server"));
        for (int links = 0; links < 10 && Files.isSymbolicLink(script); links++) {
            Path target = Files.readSymbolicLink(script);
            script = target.isAbsolute() ? onHost(target) : script.resolveSibling(target).normalize();
        }
        Path home = script.getParent() == null ? null : script.getParent().getParent();
        String name = home == null || home.getFileName() == null ? "" : home.getFileName().toString();
        if (name.startsWith(SERVER_DIRECTORY)) {
            return BrokerVersion.parse(name.substring(SERVER_DIRECTORY.length()));
        }
        Process process = new ProcessBuilder(command("rabbitmqctl", List.of("version"))).redirectErrorStream(true).start();
        String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while asking rabbitmqctl its version", e);
        }
        return BrokerVersion.parse(printed.lines().reduce((first, last) -> last).orElse(printed));
    }

    /** A path of the installation's as this machine sees it. */
    private Path onHost(Path path) {
        return root.map(dir -> dir.resolve(path.toString().substring(1))).orElse(path);
    }

    /** The root directory it is in, if it is not the machine's own. */
    public Optional<Path> root() {
        return root;
    }

    /**
     * Whether a Debian {@code /usr/sbin} wrapper, which switches to the {@code rabbitmq} user: that user could not
     * write a node's directory. The scripts it wraps are in {@code /usr/lib/rabbitmq/bin}.
     */
    private static boolean isSwitchingWrapper(Path script) {
        try {
            return Files.size(script) < 100_000 && Files.readString(script, StandardCharsets.ISO_8859_1)
                    .contains("su rabbitmq");
        } catch (IOException e) {
            return true;
        }
    }

    @Override
    public String toString() {
        return root.map(dir -> "the RabbitMQ in " + dir).orElse("the machine's RabbitMQ (" + sbin + ")");
    }
}
