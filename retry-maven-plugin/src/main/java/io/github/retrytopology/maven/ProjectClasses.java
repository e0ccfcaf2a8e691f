package io.github.retrytopology.maven;

import io.github.retrytopology.model.classes.ClassFinder;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The classes of a project's class path, its own output directory and its dependencies, with the JDK's: loaded
 * through a class loader of their own, whose parent is the JDK's platform loader, so that nothing of the plugin or
 * of Maven is found in their place. Their names are listed only when one is asked for, for "did you mean".
 */
final class ProjectClasses implements ClassFinder, Closeable {

    /** The last part of a name that no one writes: anonymous and local classes, {@code module-info}, {@code package-info}. */
    private static final Pattern UNWRITTEN = Pattern.compile("(.*\\$[0-9].*)|((module|package)-info)");

    private final List<Path> classPath;
    private final URLClassLoader loader;
    private Set<String> names;

    private ProjectClasses(List<Path> classPath, URLClassLoader loader) {
        this.classPath = List.copyOf(classPath);
        this.loader = loader;
    }

    /** The classes of these directories and jars, and the JDK's. */
    static ProjectClasses of(List<Path> classPath) {
        List<URL> urls = new ArrayList<>();
        for (Path element : classPath) {
            try {
                urls.add(element.toUri().toURL());
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("not a class path element: " + element, e);
            }
        }
        return new ProjectClasses(classPath, new URLClassLoader("retry-check-classes", urls.toArray(URL[]::new),
                ClassLoader.getPlatformClassLoader()));
    }

    @Override
    public Class<?> load(String binaryName) throws ClassNotFoundException {
        return Class.forName(binaryName, false, loader);
    }

    @Override
    public synchronized Collection<String> classNames() {
        if (names == null) {
            Set<String> found = new TreeSet<>();
            try {
                for (Path element : classPath) {
                    if (Files.isDirectory(element)) {
                        directory(element, found);
                    } else if (Files.isRegularFile(element)) {
                        jar(element, found);
                    }
                }
                jdk(found);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list the classes of the class path", e);
            }
            names = found;
        }
        return names;
    }

    private static void directory(Path root, Set<String> found) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(file -> file.toString().endsWith(".class"))
                    .forEach(file -> add(root.relativize(file).toString().replace('\\', '/'), found));
        }
    }

    private static void jar(Path file, Set<String> found) throws IOException {
        try (JarFile jar = new JarFile(file.toFile())) {
            jar.stream().map(entry -> entry.getName())
                    .filter(name -> name.endsWith(".class") && !name.startsWith("META-INF/"))
                    .forEach(name -> add(name, found));
        }
    }

    /** The classes of the JDK's standard modules, {@code java.*}. */
    private static void jdk(Set<String> found) throws IOException {
        FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
        try (Stream<Path> modules = Files.list(jrt.getPath("/modules"))) {
            for (Path module : modules.filter(module -> module.getFileName().toString().startsWith("java.")).toList()) {
                directory(module, found);
            }
        }
    }

    /** Adds the binary name of a class file's path, such as {@code com/acme/Outer$Inner.class}. */
    private static void add(String path, Set<String> found) {
        String name = path.substring(0, path.length() - ".class".length()).replace('/', '.');
        if (!UNWRITTEN.matcher(name.substring(name.lastIndexOf('.') + 1)).matches()) {
            found.add(name);
        }
    }

    @Override
    public void close() throws IOException {
        loader.close();
    }
}
