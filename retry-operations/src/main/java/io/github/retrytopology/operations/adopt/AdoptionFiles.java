package io.github.retrytopology.operations.adopt;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes an adoption's two files, the draft spec and its record beside it ({@code retry.yml} and
 * {@code retry.adoption.json}), each whole or not at all: each is written to a temporary file in the same
 * directory, then moved over its name.
 */
public final class AdoptionFiles {

    private static final String RECORD_SUFFIX = ".adoption.json";

    private AdoptionFiles() {
    }

    /** The record's file name beside a spec's: {@code retry.yml} has {@code retry.adoption.json}. */
    public static String recordName(String specFile) {
        String name = Path.of(specFile).getFileName().toString();
        int dot = name.lastIndexOf('.');
        return (dot > 0 ? name.substring(0, dot) : name) + RECORD_SUFFIX;
    }

    /** The record's path beside a spec's. */
    public static Path recordPath(Path spec) {
        return spec.resolveSibling(recordName(spec.toString()));
    }

    /**
     * Writes the draft to {@code spec} and its record beside it, the record first.
     *
     * @param replace whether files already there may be replaced; without it, an existing one is an error and
     *     nothing is written
     * @throws FileAlreadyExistsException naming the file, when one exists and {@code replace} is false
     */
    public static void write(Path spec, Adoption adoption, boolean replace) throws IOException {
        Path record = recordPath(spec);
        if (!replace) {
            for (Path file : new Path[] {spec, record}) {
                if (Files.exists(file)) {
                    throw new FileAlreadyExistsException(file.toString(), null, "exists already; adopt replaces a file "
                            + "only when told to (--force)");
                }
            }
        }
        writeWhole(record, AdoptionJson.write(adoption.record()));
        writeWhole(spec, adoption.spec());
    }

    private static void writeWhole(Path file, String content) throws IOException {
        Path directory = file.toAbsolutePath().getParent();
        Files.createDirectories(directory);
        Path temporary = Files.createTempFile(directory, "." + file.getFileName() + ".", ".tmp");
        try {
            Files.writeString(temporary, content, StandardCharsets.UTF_8);
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
    }
}
