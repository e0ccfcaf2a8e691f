package io.github.retrytopology.maven.generator;

import io.github.retrytopology.model.Names;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decides how one generated source file refers to each type it uses: by simple name, imported, unless that
 * name is already taken in the file (by the class itself, a nested class, or another type of the same simple
 * name); then by its qualified name. Types of {@code java.lang} and of the file's own package need no import.
 */
final class Imports {

    private final String javaPackage;
    private final Set<String> taken;
    private final Map<String, String> bySimpleName = new HashMap<>();
    private final Set<String> imports = new TreeSet<>();

    /**
     * @param javaPackage the package of the file
     * @param declared the simple names the file declares, which shadow any import
     */
    Imports(String javaPackage, Collection<String> declared) {
        this.javaPackage = javaPackage;
        this.taken = new HashSet<>(declared);
    }

    /** Returns how the file writes the type with this binary name, importing it if that helps. */
    String reference(String binaryName) {
        String qualified = Names.sourceName(binaryName);
        int dot = qualified.lastIndexOf('.');
        String simple = qualified.substring(dot + 1);
        String owner = bySimpleName.get(simple);
        if (qualified.equals(owner)) {
            return simple;
        }
        if (owner != null || taken.contains(simple)) {
            return qualified;
        }
        bySimpleName.put(simple, qualified);
        String packageOrOuter = dot < 0 ? "" : qualified.substring(0, dot);
        boolean implicit = packageOrOuter.equals("java.lang") || packageOrOuter.equals(javaPackage);
        if (!implicit || !binaryName.equals(qualified)) {
            imports.add(qualified);
        }
        return simple;
    }

    /** The import declarations the file needs, sorted. */
    List<String> imports() {
        return List.copyOf(imports);
    }
}
