package io.github.retrytopology.runtime.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code rabbitmqctl} for a broker the tests share and did not start: the machine's own, through the
 * {@code rabbitmqctl} on the {@code PATH}, or the node that {@code .ci/test-broker} runs in its installation.
 */
final class SharedNode implements NodeControl {

    /** Where an installation's own node keeps its Erlang cookie, inside its root. */
    private static final String INSTALLED_HOME = "/var/lib/rabbitmq";

    private final List<String> prefix;
    private final Map<String, String> environment;
    private final Path sharing;
    private final Installation installation;

    private SharedNode(List<String> prefix, Map<String, String> environment, Path sharing, Installation installation) {
        this.prefix = List.copyOf(prefix);
        this.environment = Map.copyOf(environment);
        this.sharing = sharing;
        this.installation = installation;
    }

    /** The machine's broker, through Debian's {@code rabbitmqctl}, which may switch to the broker's user. */
    static SharedNode machine() {
        return new SharedNode(List.of("rabbitmqctl"), Map.of(), null, null);
    }

    /** The node called {@code name} that {@code .ci/test-broker} runs in this installation. */
    static SharedNode in(Installation installation, String name) {
        Path root = installation.root().orElseThrow(() -> new IllegalStateException(
                "the node " + name + " is not one that .ci/test-broker runs in an installation of its own"));
        List<String> prefix = new ArrayList<>(installation.command("rabbitmqctl", List.of("-n", name)));
        Map<String, String> environment = new java.util.HashMap<>(installation.environment());
        environment.put("HOME", INSTALLED_HOME);
        return new SharedNode(prefix, environment, root.resolve("var/tmp"), installation);
    }

    @Override
    public String ctl(String... arguments) throws IOException {
        List<String> command = new ArrayList<>(prefix);
        command.add("-q");
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process = builder.start();
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not end within a minute");
            }
            if (process.exitValue() != 0) {
                throw new IOException(String.join(" ", command) + " failed (" + process.exitValue() + "): " + output);
            }
            return output;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + String.join(" ", command), e);
        }
    }

    @Override
    public String share(String name, String content) throws IOException {
        // Readable by all: Debian's rabbitmqctl runs as the broker's user.
        Path file = sharing == null
                ? Files.createTempFile(name, "", PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rw-r--r--")))
                : Files.createTempFile(sharing, name, "");
        Files.writeString(file, content, StandardCharsets.UTF_8);
        file.toFile().deleteOnExit();
        return installation == null ? file.toString() : installation.seen(file);
    }
}
