package io.github.retrytopology.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The manual's "With Spring Boot" page, {@code docs/spring-boot.md}, shows the files that the invoker build
 * {@code src/it/spring-boot-example} builds and runs, character for character, and the same {@code retry.yml} as
 * "Using it".
 */
class SpringBootExampleTest {

    private static final Path PROJECT = Path.of("src/it/spring-boot-example");
    private static final Path PAGE = Path.of("../docs/spring-boot.md");
    private static final Path USING_IT = Path.of("../retry-maven-plugin/src/it/readme-using-it/retry.yml");
    private static final Pattern BLOCK = Pattern.compile("^```(\\w+)\\n(.*?)^```", Pattern.DOTALL | Pattern.MULTILINE);

    @Test
    void thePageShowsTheFilesTheInvokerBuildBuildsAndRuns() throws IOException {
        List<String[]> blocks = blocks();

        assertThat(blocks.subList(0, 7)).extracting(block -> block[0])
                .containsExactly("sh", "yaml", "xml", "java", "java", "properties", "sh");
        assertThat(blocks.get(0)[1]).isEqualTo("./mvnw install -DskipTests\n");
        assertThat(blocks.get(1)[1]).isEqualTo(read("retry.yml")).isEqualTo(Files.readString(USING_IT));
        assertThat(blocks.get(2)[1]).isEqualTo(read("pom.xml"));
        assertThat(blocks.get(3)[1]).isEqualTo(read("src/main/java/com/acme/media/CdnPurge.java"));
        assertThat(blocks.get(4)[1]).isEqualTo(read("src/main/java/com/acme/media/MediaApplication.java"));
        assertThat(blocks.get(5)[1]).isEqualTo(read("src/main/resources/application.properties"));
    }

    @Test
    void theExampleChecksItsClassesAndServesTheEndpointsThePagePointsAt() throws IOException {
        // check-classes, as "Using it" recommends for nonRetryable; a web server and the endpoints exposed, for the
        // health and metrics the page shows (verify.groovy reads both over HTTP).
        assertThat(read("pom.xml")).contains("<goal>check-classes</goal>",
                "<artifactId>spring-boot-starter-webmvc</artifactId>");
        assertThat(read("src/main/resources/application.properties"))
                .contains("management.endpoints.web.exposure.include=health,metrics");
    }

    /** The fenced blocks that start a line, each as its language and its text. */
    private static List<String[]> blocks() throws IOException {
        Matcher block = BLOCK.matcher(Files.readString(PAGE, StandardCharsets.UTF_8));
        List<String[]> blocks = new ArrayList<>();
        while (block.find()) {
            blocks.add(new String[] {block.group(1), block.group(2)});
        }
        return blocks;
    }

    private static String read(String file) throws IOException {
        return Files.readString(PROJECT.resolve(file), StandardCharsets.UTF_8);
    }
}
