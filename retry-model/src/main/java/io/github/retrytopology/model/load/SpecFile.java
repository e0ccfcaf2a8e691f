package io.github.retrytopology.model.load;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.classes.ClassReference;
import java.util.List;

/**
 * A spec as read from its file: the model, and where the file names classes.
 *
 * @param file the file's name, as problems name it
 * @param spec the validated spec
 * @param classes every class the file names, in file order, where it names it
 */
public record SpecFile(String file, RetrySpec spec, List<ClassReference> classes) {

    public SpecFile {
        requireNonNull(file, "file");
        requireNonNull(spec, "spec");
        classes = List.copyOf(classes);
    }
}
