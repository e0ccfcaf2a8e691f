import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Checks a staged release bundle, a directory in a Maven repository's layout, against Maven Central's rules for a
 * release (https://central.sonatype.org/publish/requirements/), as its portal would before it publishes anything:
 *
 * <ul>
 *   <li>each component's coordinates agree between its path, its file names and its POM, and none is a SNAPSHOT,
 *       nor its parent, nor any version its POM names;
 *   <li>its POM, itself or through a parent in the bundle, has a name, a description, a URL, a licence (name and URL),
 *       a developer (a name) and an SCM (a URL and a connection);
 *   <li>a component that is not a POM has its jar, a {@code -sources.jar} with Java sources in it and a
 *       {@code -javadoc.jar} with an {@code index.html};
 *   <li>every file has an {@code .md5} and a {@code .sha1} that match it, and an {@code .asc} that gpg verifies.
 * </ul>
 *
 * <p>It collects every problem, prints them and exits 1; with none, it lists what it checked.
 *
 * <p>{@code java tools/CentralBundleCheck.java BUNDLE_DIRECTORY}; gpg verifies with the keyring of {@code GNUPGHOME}.
 */
public final class CentralBundleCheck {

    private static final List<String> DIGESTS = List.of("md5", "sha1");

    private final Path root;
    private final List<String> problems = new ArrayList<>();
    private final Map<Path, Document> pomFiles = new LinkedHashMap<>();
    private final Map<String, Document> poms = new LinkedHashMap<>();

    private CentralBundleCheck(Path root) {
        this.root = root;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: java tools/CentralBundleCheck.java BUNDLE_DIRECTORY");
            System.exit(2);
        }
        Path root = Path.of(args[0]);
        if (!Files.isDirectory(root)) {
            System.err.println("CentralBundleCheck: " + root + " is not a directory");
            System.exit(2);
        }
        CentralBundleCheck check = new CentralBundleCheck(root);
        List<String> checked = check.run();
        if (!check.problems.isEmpty()) {
            System.err.println("CentralBundleCheck: " + check.problems.size() + " problem(s) in " + root + ":");
            check.problems.forEach(problem -> System.err.println("  " + problem));
            System.exit(1);
        }
        System.out.println("CentralBundleCheck: " + root + " meets Maven Central's rules: " + checked.size()
                + " components, every file signed and checksummed");
        checked.forEach(component -> System.out.println("  " + component));
    }

    private List<String> run() throws Exception {
        List<Path> found;
        try (Stream<Path> files = Files.walk(root)) {
            found = files.filter(file -> file.getFileName().toString().endsWith(".pom")).sorted().toList();
        }
        if (found.isEmpty()) {
            problems.add(root + ": no .pom file: nothing was staged");
            return List.of();
        }
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(false);
        for (Path pom : found) {
            Document document = factory.newDocumentBuilder().parse(pom.toFile());
            pomFiles.put(pom, document);
            poms.put(coordinates(document), document);
        }
        List<String> checked = new ArrayList<>();
        for (Path pom : found) {
            checked.add(checkComponent(pom));
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                checkFile(file);
            }
        }
        return checked;
    }

    private String checkComponent(Path pomFile) throws IOException {
        Document pom = pomFiles.get(pomFile);
        Element project = pom.getDocumentElement();
        String where = root.relativize(pomFile).toString();
        String groupId = inherited(project, "groupId");
        String artifactId = text(project, "artifactId").orElse("");
        String version = inherited(project, "version");
        String packaging = text(project, "packaging").orElse("jar");

        Path expected = root.resolve(groupId.replace('.', '/')).resolve(artifactId).resolve(version)
                .resolve(artifactId + "-" + version + ".pom");
        if (!expected.equals(pomFile)) {
            problems.add(where + ": its POM says " + groupId + ":" + artifactId + ":" + version
                    + ", which belongs at " + root.relativize(expected));
        }
        if (version.contains("SNAPSHOT")) {
            problems.add(where + ": version " + version + " is a SNAPSHOT: Central takes releases only");
        }
        for (Element element : elements(project)) {
            boolean leaf = elements(element).isEmpty();
            if (leaf && element.getTextContent().contains("SNAPSHOT")) {
                problems.add(where + ": <" + element.getTagName() + "> of <" + parentTag(element) + "> is '"
                        + element.getTextContent().trim() + "', a SNAPSHOT");
            }
        }

        for (String required : List.of("name", "description")) {
            if (text(project, required).isEmpty()) {
                problems.add(where + ": no <" + required + ">");
            }
        }
        requireInherited(where, pom, "url", "url");
        requireInherited(where, pom, "licenses/license/name", "a licence's <name>");
        requireInherited(where, pom, "licenses/license/url", "a licence's <url>");
        requireInherited(where, pom, "developers/developer/name", "a developer's <name>");
        requireInherited(where, pom, "scm/url", "<scm><url>");
        requireInherited(where, pom, "scm/connection", "<scm><connection>");

        if (!packaging.equals("pom")) {
            Path directory = pomFile.getParent();
            String base = artifactId + "-" + version;
            Path jar = directory.resolve(base + ".jar");
            Path sources = directory.resolve(base + "-sources.jar");
            Path javadoc = directory.resolve(base + "-javadoc.jar");
            for (Path file : List.of(jar, sources, javadoc)) {
                if (!Files.isRegularFile(file)) {
                    problems.add(where + ": packaging '" + packaging + "' needs " + root.relativize(file)
                            + ", which is missing");
                }
            }
            requireEntry(sources, name -> name.endsWith(".java"), "a .java file");
            requireEntry(javadoc, name -> name.equals("index.html"), "index.html");
        }
        return groupId + ":" + artifactId + ":" + version + " (" + packaging + ")";
    }

    private void checkFile(Path file) throws Exception {
        String name = file.getFileName().toString();
        if (name.startsWith("maven-metadata") || name.endsWith(".asc") || name.endsWith(".md5")
                || name.endsWith(".sha1") || name.endsWith(".sha256") || name.endsWith(".sha512")) {
            return;
        }
        String where = root.relativize(file).toString();
        byte[] content = Files.readAllBytes(file);
        for (String digest : DIGESTS) {
            Path sum = file.resolveSibling(name + "." + digest);
            if (!Files.isRegularFile(sum)) {
                problems.add(where + ": no ." + digest + " checksum");
                continue;
            }
            String expected = hex(digest, content);
            String actual = Files.readString(sum, StandardCharsets.US_ASCII).trim().split("\\s+")[0];
            if (!actual.equalsIgnoreCase(expected)) {
                problems.add(where + ": its ." + digest + " says " + actual + " but the file's is " + expected);
            }
        }
        Path signature = file.resolveSibling(name + ".asc");
        if (!Files.isRegularFile(signature)) {
            problems.add(where + ": no .asc signature");
            return;
        }
        Process gpg = new ProcessBuilder("gpg", "--batch", "--verify", signature.toString(), file.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(gpg.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!gpg.waitFor(60, TimeUnit.SECONDS)) {
            gpg.destroyForcibly();
            problems.add(where + ": gpg took over a minute to verify its signature");
        } else if (gpg.exitValue() != 0) {
            problems.add(where + ": gpg does not verify its signature: "
                    + output.strip().replace('\n', ' '));
        }
    }

    private void requireEntry(Path jar, java.util.function.Predicate<String> entry, String what) throws IOException {
        if (!Files.isRegularFile(jar)) {
            return;
        }
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            if (zip.stream().noneMatch(e -> entry.test(e.getName()))) {
                problems.add(root.relativize(jar) + ": has no " + what);
            }
        } catch (IOException e) {
            problems.add(root.relativize(jar) + ": not a readable jar: " + e.getMessage());
        }
    }

    /** Finds a path of elements in the POM or, failing that, in its parents within the bundle. */
    private void requireInherited(String where, Document pom, String path, String what) {
        Document current = pom;
        while (current != null) {
            if (find(current.getDocumentElement(), path.split("/")).isPresent()) {
                return;
            }
            Optional<Element> parent = child(current.getDocumentElement(), "parent");
            if (parent.isEmpty()) {
                break;
            }
            String parentCoordinates = text(parent.get(), "groupId").orElse("") + ":"
                    + text(parent.get(), "artifactId").orElse("") + ":" + text(parent.get(), "version").orElse("");
            current = poms.get(parentCoordinates);
            if (current == null) {
                problems.add(where + ": its parent " + parentCoordinates + " is not in the bundle, so its "
                        + what + " cannot be checked");
                return;
            }
        }
        problems.add(where + ": no " + what + ", in the POM or its parents");
    }

    private static Optional<String> find(Element element, String[] path) {
        Element current = element;
        for (String step : path) {
            Optional<Element> next = child(current, step);
            if (next.isEmpty()) {
                return Optional.empty();
            }
            current = next.get();
        }
        String value = current.getTextContent().trim();
        return value.isEmpty() ? Optional.empty() : Optional.of(value);
    }

    private static String inherited(Element project, String field) {
        return text(project, field)
                .or(() -> child(project, "parent").flatMap(parent -> text(parent, field)))
                .orElse("");
    }

    private String coordinates(Document pom) {
        Element project = pom.getDocumentElement();
        return inherited(project, "groupId") + ":" + text(project, "artifactId").orElse("") + ":"
                + inherited(project, "version");
    }

    private static Optional<String> text(Element element, String name) {
        return child(element, name).map(child -> child.getTextContent().trim()).filter(value -> !value.isEmpty());
    }

    private static Optional<Element> child(Element element, String name) {
        for (Node node = element.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element child && child.getTagName().equals(name)) {
                return Optional.of(child);
            }
        }
        return Optional.empty();
    }

    private static List<Element> elements(Element element) {
        List<Element> all = new ArrayList<>();
        for (Node node = element.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element child) {
                all.add(child);
                all.addAll(elements(child));
            }
        }
        return all;
    }

    private static String parentTag(Element element) {
        Node parent = element.getParentNode();
        if (parent instanceof Element owner) {
            String artifact = text(owner, "artifactId").map(id -> " " + id).orElse("");
            return owner.getTagName() + artifact;
        }
        return "project";
    }

    private static String hex(String digest, byte[] content) throws NoSuchAlgorithmException {
        String algorithm = digest.equals("md5") ? "MD5" : "SHA-1";
        return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(content));
    }
}
