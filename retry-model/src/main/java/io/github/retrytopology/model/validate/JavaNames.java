package io.github.retrytopology.model.validate;

import io.github.retrytopology.model.Names;
import io.github.retrytopology.model.problem.ProblemCode;
import io.github.retrytopology.model.read.Located;
import io.github.retrytopology.model.read.Problems;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import javax.lang.model.SourceVersion;

/** What makes a name one Java takes: packages, identifiers and the binary names of classes. */
final class JavaNames {

    private static final Set<String> RESTRICTED_TYPE_NAMES = Set.of("var", "yield", "record", "sealed", "permits");

    /** Says why generated code cannot be put in this package, or null if it can. */
    static String packageProblem(String name) {
        String[] parts = name.split("\\.", -1);
        for (String part : parts) {
            String reason = part.isEmpty() ? "it has an empty part" : identifierProblem(part);
            if (reason != null) {
                return reason;
            }
            if (part.contains("$")) {
                return "'" + part + "' has a '$', which marks nested classes in the names of generated code";
            }
        }
        if (startsUpperCase(parts[0])) {
            return "'" + parts[0] + "' starts with an upper-case letter, so Java could read it as a class, such as "
                    + "one of java.lang";
        }
        if (name.equals("java") || name.startsWith("java.")) {
            return "packages under 'java' belong to the JDK";
        }
        for (Module module : ModuleLayer.boot().modules()) {
            if (module.getPackages().contains(name)) {
                return "the JDK's module " + module.getName() + " has it, and code outside the module cannot join it";
            }
        }
        return null;
    }

    /** Says why this is not a Java identifier as javac reads it, or null if it is one. */
    static String identifierProblem(String name) {
        if (SourceVersion.isKeyword(name)) {
            return "'" + name + "' is a Java keyword";
        }
        if (!SourceVersion.isIdentifier(name)) {
            return "'" + name + "' is not a Java identifier";
        }
        OptionalInt ignored = name.codePoints().filter(Character::isIdentifierIgnorable).findFirst();
        if (ignored.isPresent()) {
            return String.format("'%s' holds U+%04X, which javac ignores in names", name, ignored.getAsInt());
        }
        return null;
    }

    static boolean startsUpperCase(String name) {
        int first = name.codePointAt(0);
        return Character.isUpperCase(first) || Character.isTitleCase(first);
    }

    static String classNameProblem(String binary) {
        String source = Names.sourceName(binary);
        if (!SourceVersion.isName(source)) {
            return "expected dot-separated Java identifiers, such as com.acme.BadInput (nested classes after a $)";
        }
        if (!binary.contains(".")) {
            List<String> jdk = jdkClassesNamed(binary);
            return "it has no package; write its fully qualified name, with the package it is declared in"
                    + (jdk.isEmpty() ? "" : ", such as " + String.join(" or ", jdk));
        }
        for (String part : source.split("\\.")) {
            String reason = identifierProblem(part);
            if (reason != null) {
                return reason;
            }
        }
        String javaPackage = binary.substring(0, binary.lastIndexOf('.'));
        if (javaPackage.contains("$")) {
            return "'$' marks a nested class, so it cannot be in the package, '" + javaPackage + "'";
        }
        String root = javaPackage.split("\\.")[0];
        if (startsUpperCase(root)) {
            return "its package starts with '" + root + "', an upper-case word that Java could read as a class, "
                    + "such as one of java.lang";
        }
        for (String part : binary.substring(javaPackage.length() + 1).split("\\$")) {
            if (RESTRICTED_TYPE_NAMES.contains(part)) {
                return "'" + part + "' cannot name a class";
            }
        }
        if (bytes(binary) > Names.MAX_JAVA_NAME_BYTES) {
            return "it is " + bytes(binary) + " bytes long; at most " + Names.MAX_JAVA_NAME_BYTES;
        }
        return null;
    }

    /**
     * The public classes of the JDK's standard packages with this simple name, {@code java.lang}'s first: the
     * likely meaning of a name written without its package. Asked only for a name already refused.
     */
    static List<String> jdkClassesNamed(String simpleName) {
        return ModuleLayer.boot().modules().stream()
                .filter(module -> module.getName().startsWith("java."))
                .flatMap(module -> module.getDescriptor().exports().stream())
                .filter(export -> !export.isQualified())
                .map(export -> export.source() + "." + simpleName)
                .sorted(Comparator.comparing((String name) -> !name.startsWith("java.lang.")).thenComparing(name -> name))
                .filter(JavaNames::isPublicJdkClass)
                .limit(3)
                .toList();
    }

    static boolean isPublicJdkClass(String name) {
        try {
            return Modifier.isPublic(Class.forName(name, false, ClassLoader.getPlatformClassLoader()).getModifiers());
        } catch (ClassNotFoundException | LinkageError notThere) {
            return false;
        }
    }

    static boolean checkClassName(Problems problems, Located<String> name, String what) {
        String binary = name.value();
        String reason = classNameProblem(binary);
        if (reason != null) {
            problems.report(name, ProblemCode.BAD_CLASS_NAME, "'" + binary + "' is not the binary name of "
                    + what + ": " + reason);
            return false;
        }
        return true;
    }

    static boolean hasControlCharacters(String text) {
        return text.codePoints().anyMatch(Character::isISOControl);
    }

    static int bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    private JavaNames() {
    }
}
