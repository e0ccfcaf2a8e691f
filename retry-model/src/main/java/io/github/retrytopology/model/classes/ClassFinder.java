package io.github.retrytopology.model.classes;

import static java.util.Objects.requireNonNull;

import java.util.Collection;
import java.util.List;

/** Where the classes a spec names are looked for: a project's class path, or an application's class loader. */
public interface ClassFinder {

    /**
     * Loads a class by its binary name, without initializing it.
     *
     * @throws ClassNotFoundException if there is no such class here
     * @throws LinkageError if the class is here but cannot be loaded, such as for a missing superclass
     */
    Class<?> load(String binaryName) throws ClassNotFoundException;

    /** The binary names of the classes here, for "did you mean"; asked only when a class is missing. */
    default Collection<String> classNames() {
        return List.of();
    }

    /** The classes a class loader loads, with no names to suggest. */
    static ClassFinder of(ClassLoader loader) {
        requireNonNull(loader, "loader");
        return name -> Class.forName(name, false, loader);
    }
}
