package io.github.retrytopology.maven.generator;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * One generated file, in memory until every file has been rendered.
 *
 * @param path where it goes
 * @param content its bytes: UTF-8 with LF line ends
 */
public record GeneratedFile(Path path, byte[] content) {

    public GeneratedFile {
        requireNonNull(path, "path");
        requireNonNull(content, "content");
    }

    static GeneratedFile of(Path path, String text) {
        return new GeneratedFile(path, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Equal when the paths and the content's bytes are. */
    @Override
    public boolean equals(Object other) {
        return other instanceof GeneratedFile that && path.equals(that.path) && Arrays.equals(content, that.content);
    }

    @Override
    public int hashCode() {
        return 31 * path.hashCode() + Arrays.hashCode(content);
    }

    @Override
    public String toString() {
        return "GeneratedFile[path=" + path + ", content=" + content.length + " bytes]";
    }
}
