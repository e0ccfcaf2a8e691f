import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeMap;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Copies a module's jar keeping only the classes of the packages its {@code module-info} exports to everyone: the API
 * that japicmp compares with {@code api-baseline/}. Its entries are sorted by name and keep their timestamps, so the
 * same jar always gives the same bytes.
 *
 * <p>{@code java tools/ExportedApi.java MODULE.jar API.jar}
 */
public final class ExportedApi {

    private ExportedApi() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: java tools/ExportedApi.java MODULE.jar API.jar");
            System.exit(2);
        }
        Path source = Path.of(args[0]);
        Path target = Path.of(args[1]);
        if (!Files.isRegularFile(source)) {
            fail(source + " does not exist: build the module's jar first (package)");
        }
        try (JarFile jar = new JarFile(source.toFile())) {
            ZipEntry descriptorEntry = jar.getEntry("module-info.class");
            if (descriptorEntry == null) {
                fail(source + " has no module-info.class: only a module's exported packages make an API to compare");
            }
            Set<String> exported;
            try (InputStream in = jar.getInputStream(descriptorEntry)) {
                exported = ModuleDescriptor.read(in).exports().stream()
                        .filter(export -> !export.isQualified())
                        .map(export -> export.source().replace('.', '/') + "/")
                        .collect(Collectors.toSet());
            }
            TreeMap<String, ZipEntry> kept = new TreeMap<>();
            jar.stream()
                    .filter(entry -> entry.getName().endsWith(".class"))
                    .filter(entry -> exported.contains(packageOf(entry.getName())))
                    .forEach(entry -> kept.put(entry.getName(), entry));
            Files.createDirectories(target.toAbsolutePath().getParent());
            try (OutputStream file = Files.newOutputStream(target); ZipOutputStream out = new ZipOutputStream(file)) {
                for (ZipEntry entry : kept.values()) {
                    ZipEntry copy = new ZipEntry(entry.getName());
                    copy.setTime(entry.getTime());
                    out.putNextEntry(copy);
                    try (InputStream in = jar.getInputStream(entry)) {
                        in.transferTo(out);
                    }
                    out.closeEntry();
                }
            }
        }
    }

    private static String packageOf(String entryName) {
        return entryName.substring(0, entryName.lastIndexOf('/') + 1);
    }

    private static void fail(String message) {
        System.err.println("ExportedApi: " + message);
        System.exit(1);
    }
}
