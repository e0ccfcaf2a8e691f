package io.github.retrytopology.maven;

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
 * The manual's "Using it" page, {@code docs/using-it.md}, is what the invoker build {@code src/it/readme-using-it}
 * builds, with Maven 3.8 as with the wrapper's: its {@code retry.yml}, its {@code pom.xml} and its handler, character
 * for character. A newcomer who copies them gets a build that works; the README's example is the same
 * {@code retry.yml} and handler.
 */
class ReadmeUsingItTest {

    private static final Path PROJECT = Path.of("src/it/readme-using-it");
    private static final Path USING_IT = Path.of("../docs/using-it.md");
    private static final Path README = Path.of("../README.md");
    private static final Pattern BLOCK = Pattern.compile("```(\\w+)\\n(.*?)```", Pattern.DOTALL);

    @Test
    void theInvokerBuildHoldsTheUsingItPagesFilesAsTheyAre() throws IOException {
        List<String[]> blocks = blocks(USING_IT);

        assertThat(blocks).extracting(block -> block[0]).containsExactly("sh", "yaml", "xml", "sh", "sh", "java");
        assertThat(blocks.get(0)[1]).isEqualTo("./mvnw install -DskipTests\n");
        assertThat(read("retry.yml")).isEqualTo(blocks.get(1)[1]);
        assertThat(read("pom.xml")).isEqualTo(blocks.get(2)[1]);
        assertThat(read("src/main/java/com/acme/media/CdnPurge.java")).isEqualTo(blocks.get(5)[1]);
    }

    @Test
    void importsTheDefinitionsWithAnAbsolutePath() throws IOException {
        assertThat(blocks(USING_IT).get(3)[1])
                .contains("rabbitmqctl import_definitions \"$PWD/target/generated-resources/");
    }

    @Test
    void createsTheVirtualHostBeforeImportingIntoIt() throws IOException {
        String imports = blocks(USING_IT).get(3)[1];

        assertThat(imports.indexOf("-X PUT http://rabbit:15672/api/vhosts/some-vhost\n"))
                .isNotNegative()
                .isLessThan(imports.indexOf("definitions.vhost.json"));
    }

    @Test
    void grantsTheServicesUserAccessToTheVirtualHost() throws IOException {
        assertThat(blocks(USING_IT).get(4)[1])
                .contains("http://rabbit:15672/api/permissions/some-vhost/media\n")
                .contains("rabbitmqctl set_permissions -p some-vhost media '.*' '.*' '.*'\n");
    }

    @Test
    void theReadmesExampleIsTheOneTheInvokerBuildBuilds() throws IOException {
        List<String[]> blocks = blocks(README);

        assertThat(blocks).filteredOn(block -> block[0].equals("yaml")).extracting(block -> block[1])
                .containsExactly(read("retry.yml"));
        assertThat(blocks).filteredOn(block -> block[0].equals("java")).extracting(block -> block[1])
                .containsExactly(read("src/main/java/com/acme/media/CdnPurge.java"));
    }

    /** The fenced blocks of a page, each as its language and its text. */
    private static List<String[]> blocks(Path page) throws IOException {
        String text = Files.readString(page, StandardCharsets.UTF_8);
        List<String[]> blocks = new ArrayList<>();
        Matcher block = BLOCK.matcher(text);
        while (block.find()) {
            blocks.add(new String[] {block.group(1), block.group(2)});
        }
        return blocks;
    }

    private static String read(String file) throws IOException {
        return Files.readString(PROJECT.resolve(file), StandardCharsets.UTF_8);
    }
}
