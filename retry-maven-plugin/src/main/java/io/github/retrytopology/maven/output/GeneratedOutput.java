package io.github.retrytopology.maven.output;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The files of one generation and the stamp that remembers them. The stamp, kept in the Java output
 * directory, records a fingerprint of everything the output depends on and the files written. A run whose
 * fingerprint matches the stamp, with every file still there, has nothing to do.
 *
 * <p>Writing removes the stamp first and puts it back last, so an interrupted run is never taken for a
 * complete one, and its files are all compared again by the next. A file is written only if it is new or its
 * bytes changed, so that compilers and IDEs see no change where there is none, and an existing one is
 * replaced atomically. Files that an earlier generation wrote and this one does not are deleted.
 */
public final class GeneratedOutput {

    /** The stamp's file name. */
    public static final String STAMP = ".retry-generate.stamp";

    private static final String FINGERPRINT = "fingerprint ";
    private static final String FILE = "file ";

    private final Path stamp;

    public GeneratedOutput(Path directory) {
        this.stamp = directory.resolve(STAMP);
    }

    /** Returns whether the last generation had this fingerprint and all of its files are still there. */
    public boolean isUpToDate(String fingerprint) throws IOException {
        Optional<Stamp> previous = read();
        return previous.isPresent() && previous.get().fingerprint().equals(fingerprint)
                && previous.get().files().stream().allMatch(Files::isRegularFile);
    }

    /** Forgets the last generation, so that the next run generates again. */
    public void invalidate() throws IOException {
        Files.deleteIfExists(stamp);
    }

    /** What writing changed. */
    public record Changes(List<Path> written, List<Path> unchanged, List<Path> deleted) {
    }

    /** Writes the files whose bytes changed, deletes the stale ones, and records the fingerprint. */
    public Changes write(List<Path> paths, List<byte[]> contents, String fingerprint) throws IOException {
        Set<Path> previous = read().map(Stamp::files).orElse(Set.of());
        invalidate();
        List<Path> written = new ArrayList<>();
        List<Path> unchanged = new ArrayList<>();
        Set<Path> directories = new HashSet<>();
        for (int i = 0; i < paths.size(); i++) {
            Path path = paths.get(i);
            if (directories.add(path.getParent())) {
                Files.createDirectories(path.getParent());
            }
            if (!Files.exists(path)) {
                // Nothing to replace; without the stamp, a file cut short is rewritten by the next run.
                Files.write(path, contents.get(i), StandardOpenOption.CREATE_NEW);
                written.add(path);
            } else if (sameBytes(path, contents.get(i))) {
                unchanged.add(path);
            } else {
                replace(path, contents.get(i));
                written.add(path);
            }
        }
        List<Path> deleted = new ArrayList<>();
        for (Path stale : previous) {
            if (!paths.contains(stale) && Files.deleteIfExists(stale)) {
                deleted.add(stale);
            }
        }
        StringBuilder text = new StringBuilder(FINGERPRINT).append(fingerprint).append('\n');
        paths.forEach(path -> text.append(FILE).append(path).append('\n'));
        replace(stamp, text.toString().getBytes(StandardCharsets.UTF_8));
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
                files.add(Path.of(line.substring(FILE.length())));
            }
        }
        return Optional.of(new Stamp(fingerprint, files));
    }

    private static boolean sameBytes(Path path, byte[] content) throws IOException {
        return Files.size(path) == content.length && Arrays.equals(Files.readAllBytes(path), content);
    }

    /** Replaces a file in one step, so that no reader ever sees it half written. */
    private static void replace(Path path, byte[] content) throws IOException {
        Files.createDirectories(path.getParent());
        Path temporary = Files.createTempFile(path.getParent(), "." + path.getFileName(), ".tmp");
        try {
            Files.write(temporary, content);
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
