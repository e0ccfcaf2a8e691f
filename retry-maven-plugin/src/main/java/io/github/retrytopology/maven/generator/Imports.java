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
 * Types the template itself writes, {@code java.lang.Exception} too, are asked for first, so that a payload
 * class of the same simple name is the one written in full.
 */
final class Imports {

    private final String javaPackage;
    private final Set<String> taken;
    private final Map<String, String> bySimpleName = new HashMap<>();
    private final Set<String> imports = new TreeSet<>();
    private final Set<String> qualifiedRoots = new HashSet<>();

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
            qualifiedRoots.add(qualified.substring(0, qualified.indexOf('.')));
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

    /**
     * A name for a local variable that no qualified name of the file starts with: Java would read such a
     * qualified name as a member of the variable.
     */
    String variable(String preferred) {
        String name = preferred;
        for (int suffix = 2; qualifiedRoots.contains(name); suffix++) {
            name = preferred + suffix;
        }
        return name;
    }

    /** The import declarations the file needs, sorted. */
    List<String> imports() {
        return List.copyOf(imports);
    }
}
