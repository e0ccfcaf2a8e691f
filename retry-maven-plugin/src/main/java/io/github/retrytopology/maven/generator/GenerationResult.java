package io.github.retrytopology.maven.generator;

import java.nio.file.Path;
import java.util.List;

/**
 * What a generation did.
 *
 * @param upToDate whether nothing had changed, so nothing was rendered
 * @param written the files written, because they were new or their bytes changed
 * @param unchanged the files rendered again with the same bytes, left untouched
 * @param deleted files of an earlier generation that this one no longer produces
 */
public record GenerationResult(boolean upToDate, List<Path> written, List<Path> unchanged, List<Path> deleted) {

    public GenerationResult {
        written = List.copyOf(written);
        unchanged = List.copyOf(unchanged);
        deleted = List.copyOf(deleted);
    }

    static GenerationResult alreadyUpToDate() {
        return new GenerationResult(true, List.of(), List.of(), List.of());
    }
}
