package io.github.retrytopology.maven.output;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The files of one generation and the stamp that remembers them. The stamp, kept in the Java output
 * directory, records a fingerprint of everything the output depends on and the files written, each relative
 * to its output directory. A run whose fingerprint matches the stamp, with every file still there, has nothing
 * to do.
 *
 * <p>Only files inside the two output directories are ever written or deleted: the stamp names files by
 * their place in an output directory, so a copied project's stamp names the copy's files, and an entry that
 * would lead outside is ignored.
 *
 * <p>Before writing, the stamp is replaced by one that matches no fingerprint and names the files of both the
 * last generation and this one; the complete stamp replaces it last. An interrupted run is thus never taken
 * for a complete one, and the next run still knows every file to compare or delete. A run that fails before
 * writing leaves the stamp as it was, naming the files that are there. A file is written only if it is new or
 * its bytes changed, so that compilers and IDEs see no change where there is none; an existing one is
 * replaced atomically, by a file created as any new file is, with the same permissions.
 */
public final class GeneratedOutput {

    /** The stamp's file name. */
    public static final String STAMP = ".retry-generate.stamp";

    private static final String FINGERPRINT = "fingerprint ";
    private static final String FILE = "file ";
    private static final String INCOMPLETE = "incomplete";

    private final Map<String, Path> roots;
    private final Path stamp;

    /**
     * @param java the output directory of the Java sources, which holds the stamp
     * @param resources the output directory of the resources
     */
    public GeneratedOutput(Path java, Path resources) {
        this.roots = Map.of("java", java.toAbsolutePath().normalize(), "resources",
                resources.toAbsolutePath().normalize());
        this.stamp = roots.get("java").resolve(STAMP);
    }

    /** Returns whether the last generation had this fingerprint and all of its files are still there. */
    public boolean isUpToDate(String fingerprint) throws IOException {
        Optional<Stamp> previous = read();
        return previous.isPresent() && previous.get().fingerprint().equals(fingerprint)
                && previous.get().files().stream().allMatch(Files::isRegularFile);
    }

    /** What writing changed. */
    public record Changes(List<Path> written, List<Path> unchanged, List<Path> deleted) {
    }

    /**
     * Writes the files whose bytes changed, deletes the stale ones, and records the fingerprint.
     *
     * @param paths where the files go, each inside one of the output directories
     * @param contents their bytes, in the same order
     */
    public Changes write(List<Path> paths, List<byte[]> contents, String fingerprint) throws IOException {
        List<Path> targets = paths.stream().map(path -> path.toAbsolutePath().normalize()).toList();
        for (Path target : targets) {
            if (entry(target).isEmpty()) {
                throw new IllegalArgumentException(target + " is outside the output directories " + roots.values());
            }
        }
        Set<Path> previous = read().map(Stamp::files).orElse(Set.of());
        Set<Path> everyFile = new LinkedHashSet<>(previous);
        everyFile.addAll(targets);
        writeStamp(INCOMPLETE, everyFile);
        List<Path> written = new ArrayList<>();
        List<Path> unchanged = new ArrayList<>();
        Set<Path> directories = new HashSet<>();
        for (int i = 0; i < targets.size(); i++) {
            Path path = targets.get(i);
            if (directories.add(path.getParent())) {
                Files.createDirectories(path.getParent());
            }
            if (!Files.exists(path)) {
                Files.write(path, contents.get(i), StandardOpenOption.CREATE_NEW);
                written.add(path);
            } else if (sameBytes(path, contents.get(i))) {
                unchanged.add(path);
            } else {
                replace(path, contents.get(i));
                written.add(path);
            }
        }
        Set<Path> current = new HashSet<>(targets);
        List<Path> deleted = new ArrayList<>();
        for (Path stale : previous) {
            if (!current.contains(stale) && Files.isRegularFile(stale, LinkOption.NOFOLLOW_LINKS)
                    && Files.deleteIfExists(stale)) {
                deleted.add(stale);
            }
        }
        writeStamp(fingerprint, new LinkedHashSet<>(targets));
        return new Changes(written, unchanged, deleted);
    }

    private record Stamp(String fingerprint, Set<Path> files) {
    }

    private Optional<Stamp> read() throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(stamp, StandardCharsets.UTF_8);
        } catch (NoSuchFileException none) {
            return Optional.empty();
        }
        String fingerprint = "";
        Set<Path> files = new LinkedHashSet<>();
        for (String line : lines) {
            if (line.startsWith(FINGERPRINT)) {
                fingerprint = line.substring(FINGERPRINT.length());
            } else if (line.startsWith(FILE)) {
                resolve(line.substring(FILE.length())).ifPresent(files::add);
            }
        }
        return Optional.of(new Stamp(fingerprint, files));
    }

    private void writeStamp(String fingerprint, Set<Path> files) throws IOException {
        StringBuilder text = new StringBuilder(FINGERPRINT).append(fingerprint).append('\n');
        for (Path file : files) {
            entry(file).ifPresent(entry -> text.append(FILE).append(entry).append('\n'));
        }
        replace(stamp, text.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The stamp's entry of a file: its output directory's name and its path inside, with forward slashes. */
    private Optional<String> entry(Path file) {
        for (Map.Entry<String, Path> root : roots.entrySet()) {
            if (file.startsWith(root.getValue()) && !file.equals(root.getValue())) {
                String relative = root.getValue().relativize(file).toString().replace('\\', '/');
                return Optional.of(root.getKey() + " " + relative);
            }
        }
        return Optional.empty();
    }

    /** The file a stamp's entry names, if it names one inside an output directory. */
    private Optional<Path> resolve(String entry) {
        int space = entry.indexOf(' ');
        Path root = space < 0 ? null : roots.get(entry.substring(0, space));
        if (root == null) {
            return Optional.empty();
        }
        try {
            Path file = root.resolve(entry.substring(space + 1)).normalize();
            boolean inside = file.startsWith(root) && !file.equals(root) && !file.equals(stamp);
            return inside ? Optional.of(file) : Optional.empty();
        } catch (java.nio.file.InvalidPathException e) {
            return Optional.empty();
        }
    }

    private static boolean sameBytes(Path path, byte[] content) throws IOException {
        return Files.size(path) == content.length && Arrays.equals(Files.readAllBytes(path), content);
    }

    /**
     * Replaces a file in one step, so that no reader ever sees it half written. The new bytes go to a file
     * created as any new file is, so that the replaced one keeps the permissions a new file gets rather than
     * a temporary file's.
     */
    private static void replace(Path path, byte[] content) throws IOException {
        Files.createDirectories(path.getParent());
        Path temporary = null;
        while (temporary == null) {
            Path candidate = path.resolveSibling("." + path.getFileName() + "."
                    + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
            try (OutputStream out = Files.newOutputStream(candidate, StandardOpenOption.CREATE_NEW)) {
                out.write(content);
                temporary = candidate;
            } catch (FileAlreadyExistsException taken) {
                // Another name, then.
            } catch (IOException e) {
                Files.deleteIfExists(candidate);
                throw e;
            }
        }
        try {
            try {
                Files.move(temporary, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, path, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
    }
}
