package io.github.retrytopology.maven;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The README and the manual in {@code docs/} link only to files that exist and to headings those pages have, with
 * the anchors GitHub makes of them: moving a page or renaming a heading cannot leave a link that leads nowhere.
 * Links in fenced code and code spans are text, not links, and are left alone.
 */
class DocsLinksTest {

    private static final Path ROOT = Path.of("..");

    @TempDir
    Path work;

    @Test
    void everyRelativeLinkLeadsToAFileAndAHeadingThatExist() throws IOException {
        LinkCheck check = new LinkCheck(ROOT);
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            broken.addAll(check.brokenLinks(page));
        }

        assertThat(broken)
                .withFailMessage("%d broken links:%n%s", broken.size(), String.join(System.lineSeparator(), broken))
                .isEmpty();
    }

    @Test
    void theReadmeLinksEveryPageOfTheManual() throws IOException {
        Path readme = ROOT.resolve("README.md");
        Set<Path> linked = LinkCheck.links(Files.readString(readme, StandardCharsets.UTF_8)).stream()
                .map(link -> link.file(readme, ROOT))
                .collect(Collectors.toSet());

        assertThat(linked).containsAll(manual());
    }

    @Test
    void everyPageOfTheManualLinksBackToTheReadme() throws IOException {
        Path readme = ROOT.resolve("README.md").toAbsolutePath().normalize();
        for (Path page : manual()) {
            assertThat(LinkCheck.links(Files.readString(page, StandardCharsets.UTF_8)))
                    .as("the links of %s", page)
                    .anySatisfy(link -> assertThat(link.file(page, ROOT)).isEqualTo(readme));
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            Editing retry.yml                          | editing-retryyml
            The `retry.yml` reference                  | the-retryyml-reference
            What `apply` does                          | what-apply-does
            plan.json                                  | planjson
            Runs of November 2026                      | runs-of-november-2026
            Retries that stall (before 3.12.5)         | retries-that-stall-before-3125
            snake_case and kebab-case                  | snake_case-and-kebab-case
            Déclarer la topologie                      | déclarer-la-topologie
            A [linked](other.md) heading               | a-linked-heading
            Closed heading ##                          | closed-heading
            """)
    void makesAnchorsOfHeadingsAsGitHubDoes(String heading, String anchor) {
        assertThat(LinkCheck.anchors("## " + heading + "\n")).containsExactly(anchor);
    }

    @Test
    void numbersTheAnchorsOfRepeatedHeadings() {
        assertThat(LinkCheck.anchors("# Runs\n\n## Consuming\n\n## Consuming\n\n### Consuming\n"))
                .containsExactly("runs", "consuming", "consuming-1", "consuming-2");
    }

    @Test
    void takesNoHeadingsFromFencedCode() {
        assertThat(LinkCheck.anchors("# Spec\n\n```yaml\n# yaml-language-server: $schema=x.json\n```\n"))
                .containsExactly("spec");
    }

    @Test
    void reportsEveryBrokenLinkWithItsPageAndLine() throws IOException {
        write("README.md", "# Front door\n\nSee [the spec](docs/spec.md#editing-retryyml) and [it](docs/gone.md).\n");
        write("docs/spec.md", """
                # The spec

                ## Editing retry.yml

                [Back](../README.md), [up](#the-spec), [down](#derived-names),
                [the schema](../schema/retry.schema.json) and [the front door](../README.md#two-commands).
                """);

        LinkCheck check = new LinkCheck(work);
        List<String> broken = new ArrayList<>(check.brokenLinks(work.resolve("README.md")));
        broken.addAll(check.brokenLinks(work.resolve("docs/spec.md")));

        assertThat(broken).containsExactly(
                "README.md:3: [it](docs/gone.md): no such file or directory, docs/gone.md",
                "docs/spec.md:5: [down](#derived-names): no heading of docs/spec.md makes the anchor #derived-names",
                "docs/spec.md:6: [the schema](../schema/retry.schema.json): no such file or directory,"
                        + " schema/retry.schema.json",
                "docs/spec.md:6: [the front door](../README.md#two-commands): no heading of README.md makes the anchor"
                        + " #two-commands");
    }

    @Test
    void leavesLinksInCodeAlone() throws IOException {
        write("README.md", """
                # Front door

                ```sh
                echo "[not a link](nowhere.md)"
                ```

                A code span, `[not a link](nowhere.md)`, and [a link to a directory](docs).
                """);
        Files.createDirectories(work.resolve("docs"));

        assertThat(new LinkCheck(work).brokenLinks(work.resolve("README.md"))).isEmpty();
    }

    @Test
    void followsALinkThatWrapsOntoTheNextLine() throws IOException {
        write("README.md", "# Front door\n\nThe handlers are described in [The\nruntime](docs/runtime.md).\n");

        assertThat(new LinkCheck(work).brokenLinks(work.resolve("README.md")))
                .containsExactly("README.md:3: [The runtime](docs/runtime.md): no such file or directory,"
                        + " docs/runtime.md");
    }

    @Test
    void leavesLinksToTheWebAlone() throws IOException {
        write("README.md", "# Front door\n\n[RabbitMQ](https://www.rabbitmq.com/docs/dlx#safety), "
                + "[us](mailto:team@example.com), [old](http://example.com/gone.md).\n");

        assertThat(new LinkCheck(work).brokenLinks(work.resolve("README.md"))).isEmpty();
    }

    private void write(String file, String text) throws IOException {
        Path path = work.resolve(file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, text, StandardCharsets.UTF_8);
    }

    /** The README, then the pages of the manual. */
    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        pages.addAll(manual());
        return pages;
    }

    private static List<Path> manual() throws IOException {
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            return files.filter(file -> file.toString().endsWith(".md"))
                    .map(file -> file.toAbsolutePath().normalize())
                    .sorted()
                    .toList();
        }
    }

    /** The Markdown links of pages under one root, checked against the files and headings there. */
    private static final class LinkCheck {

        private static final Pattern FENCE = Pattern.compile("^\\s*(`{3,}|~{3,})");
        private static final Pattern HEADING = Pattern.compile("^ {0,3}#{1,6}[ \\t]+(.*?)(?:[ \\t]+#+)?[ \\t]*$");
        private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1");
        private static final Pattern LINK = Pattern.compile("\\[([^\\]]*)\\]\\(([^)\\s]*)(?:\\s+\"[^\"]*\")?\\)");
        private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

        private final Path root;
        private final Map<Path, Set<String>> anchorsByPage = new HashMap<>();

        LinkCheck(Path root) {
            this.root = root.toAbsolutePath().normalize();
        }

        /** Each link that leads nowhere, as {@code page:line: [text](target): why}. */
        List<String> brokenLinks(Path page) throws IOException {
            Path from = page.toAbsolutePath().normalize();
            List<String> broken = new ArrayList<>();
            for (Link link : links(Files.readString(from, StandardCharsets.UTF_8))) {
                if (SCHEME.matcher(link.target()).find()) {
                    continue;
                }
                String problem = problem(link, from);
                if (problem != null) {
                    broken.add(name(from) + ":" + link.line() + ": [" + link.text() + "](" + link.target() + "): "
                            + problem);
                }
            }
            return broken;
        }

        private String problem(Link link, Path from) throws IOException {
            Path to = link.file(from, root);
            if (!to.startsWith(root)) {
                return "outside the repository, " + to;
            }
            if (!Files.exists(to)) {
                return "no such file or directory, " + name(to);
            }
            String fragment = link.fragment();
            if (fragment == null) {
                return null;
            }
            if (!to.getFileName().toString().endsWith(".md") || Files.isDirectory(to)) {
                return "#" + fragment + " names a heading, but " + name(to) + " is not a Markdown page";
            }
            Set<String> anchors = anchorsByPage.get(to);
            if (anchors == null) {
                anchors = anchors(Files.readString(to, StandardCharsets.UTF_8));
                anchorsByPage.put(to, anchors);
            }
            return anchors.contains(fragment) ? null : "no heading of " + name(to) + " makes the anchor #" + fragment;
        }

        private String name(Path path) {
            return root.relativize(path).toString().replace('\\', '/');
        }

        /** The anchors GitHub makes of a page's headings, in order. */
        static Set<String> anchors(String markdown) {
            Set<String> anchors = new LinkedHashSet<>();
            Map<String, Integer> repeats = new HashMap<>();
            for (String line : outsideFences(markdown, false).split("\n", -1)) {
                Matcher heading = HEADING.matcher(line);
                if (heading.matches()) {
                    String slug = slug(heading.group(1));
                    String anchor = slug;
                    while (anchors.contains(anchor)) {
                        int repeat = repeats.merge(slug, 1, Integer::sum);
                        anchor = slug + "-" + repeat;
                    }
                    anchors.add(anchor);
                }
            }
            return anchors;
        }

        /**
         * GitHub's rule: the heading's text (a link counts as its text), lower-case; letters, digits, '-' and '_'
         * kept, spaces made '-', everything else dropped.
         */
        private static String slug(String heading) {
            String text = LINK.matcher(heading).replaceAll("$1").toLowerCase(Locale.ROOT);
            StringBuilder slug = new StringBuilder();
            text.codePoints().forEach(c -> {
                if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                    slug.appendCodePoint(c);
                } else if (c == ' ') {
                    slug.append('-');
                }
            });
            return slug.toString();
        }

        /** A page's links outside code, each with the line it starts on. */
        static List<Link> links(String markdown) {
            String prose = outsideFences(markdown, true);
            List<Link> links = new ArrayList<>();
            Matcher link = LINK.matcher(prose);
            int line = 1;
            int counted = 0;
            while (link.find()) {
                for (; counted < link.start(); counted++) {
                    if (prose.charAt(counted) == '\n') {
                        line++;
                    }
                }
                links.add(new Link(line, link.group(1).replaceAll("\\s+", " "), link.group(2)));
            }
            return links;
        }

        /**
         * The page with its fenced code blocks emptied, and its code spans blanked if asked, line for line and
         * column for column, so that what is left of a link is a link. A heading keeps its code spans, whose text
         * is part of its anchor.
         */
        private static String outsideFences(String markdown, boolean blankCodeSpans) {
            String[] lines = markdown.replace("\r\n", "\n").split("\n", -1);
            String fence = null;
            for (int i = 0; i < lines.length; i++) {
                Matcher opening = FENCE.matcher(lines[i]);
                if (fence == null && opening.find()) {
                    fence = opening.group(1);
                    lines[i] = "";
                } else if (fence != null) {
                    String closing = lines[i].strip();
                    char mark = fence.charAt(0);
                    if (closing.startsWith(fence) && closing.chars().allMatch(c -> c == mark)) {
                        fence = null;
                    }
                    lines[i] = "";
                } else if (blankCodeSpans) {
                    lines[i] = blankCodeSpans(lines[i]);
                }
            }
            return String.join("\n", lines);
        }

        private static String blankCodeSpans(String line) {
            Matcher span = CODE_SPAN.matcher(line);
            StringBuilder blanked = new StringBuilder();
            while (span.find()) {
                String ticks = span.group(1);
                String blank = ticks + " ".repeat(span.group(2).length()) + ticks;
                span.appendReplacement(blanked, Matcher.quoteReplacement(blank));
            }
            span.appendTail(blanked);
            return blanked.toString();
        }
    }

    /** A link as written: the line it starts on, its text and its target. */
    private record Link(int line, String text, String target) {

        /** The file or directory it names, from the page it is on; the page itself for an in-page anchor. */
        Path file(Path page, Path root) {
            Path from = page.toAbsolutePath().normalize();
            int hash = target.indexOf('#');
            String path = URLDecoder.decode((hash < 0 ? target : target.substring(0, hash)).replace("+", "%2B"),
                    StandardCharsets.UTF_8);
            if (path.isEmpty()) {
                return from;
            }
            Path base = path.startsWith("/") ? root.toAbsolutePath().normalize() : from.getParent();
            return base.resolve(path.startsWith("/") ? path.substring(1) : path).normalize();
        }

        /** The anchor it names, or null. */
        String fragment() {
            int hash = target.indexOf('#');
            if (hash < 0) {
                return null;
            }
            return URLDecoder.decode(target.substring(hash + 1).replace("+", "%2B"), StandardCharsets.UTF_8);
        }
    }
}
