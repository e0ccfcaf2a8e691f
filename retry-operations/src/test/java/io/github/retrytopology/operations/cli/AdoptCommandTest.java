package io.github.retrytopology.operations.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.operations.adopt.AdoptionJson;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code retry adopt} from a definitions file: what it writes, what it prints, and its exit codes. */
class AdoptCommandTest {

    private static final Path SHAPES = Path.of("src/test/resources/adopt");

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void writesTheDraftAndItsRecordAndExitsZeroWhenItUnderstoodEverything(@TempDir Path directory) throws IOException {
        Path spec = directory.resolve("ucenter.yml");

        int exit = run("adopt", "--definitions", SHAPES.resolve("003-master-retry-failed/definitions.json").toString(),
                "--out", spec.toString(), "--package", "com.acme.ucenter");

        assertThat(exit).isEqualTo(RetryCommand.OK);
        assertThat(Specs.load(spec).javaPackage()).isEqualTo("com.acme.ucenter");
        assertThat(AdoptionJson.read(directory.resolve("ucenter.adoption.json")).spec()).isEqualTo("ucenter.yml");
        assertThat(out.toString()).startsWith("adopted virtual host '/' from definitions file ")
                .contains("\n  ucenter-user: queue ucenter@user, 1 wait queue, 1 failed queue, maxAttempts 4\n")
                .contains("wrote " + spec + " and " + directory.resolve("ucenter.adoption.json")
                        + "; check the 2 lines marked \"assumed:\"");
        assertThat(err.toString()).isEmpty();
        assertThat(directory.toFile().list()).containsExactlyInAnyOrder("ucenter.yml", "ucenter.adoption.json");
    }

    @Test
    void exitsTwoAndListsWhatItLeftUnmappedBesideTheDraft(@TempDir Path directory) throws IOException {
        Path spec = directory.resolve("retry.yml");

        int exit = run("adopt", "--definitions", SHAPES.resolve("bad/shovel-and-stray-queue.json").toString(),
                "--out", spec.toString());

        assertThat(exit).isEqualTo(RetryCommand.DRIFT);
        assertThat(Files.readString(spec)).contains("# - shovel 'to-archive'");
        assertThat(out.toString()).contains("unmapped (4):\n  exchange 'audit': ")
                .contains("\n  shovel 'to-archive': a dynamic shovel from queue 'ucenter@user@failed'");
    }

    @Test
    void aVirtualHostWithoutRetryStructureGetsItsExplanationAndExitsTwo(@TempDir Path directory) throws IOException {
        Path spec = directory.resolve("retry.yml");

        int exit = run("adopt", "--definitions", SHAPES.resolve("bad/no-retry-structure.json").toString(),
                "--out", spec.toString());

        assertThat(exit).isEqualTo(RetryCommand.DRIFT);
        assertThat(Files.readString(spec)).startsWith("# Drafted by `retry adopt`");
        assertThat(out.toString()).contains(": 0 services\n")
                .endsWith("no retry structure found: the draft holds comments only, and is no spec yet\n");
    }

    @Test
    void malformedDefinitionsAreAnErrorWithTheirPositionAndWriteNothing(@TempDir Path directory) {
        Path definitions = SHAPES.resolve("bad/malformed.json");

        int exit = run("adopt", "--definitions", definitions.toString(), "--out", directory.resolve("retry.yml").toString());

        assertThat(exit).isEqualTo(RetryCommand.ERROR);
        assertThat(err.toString()).startsWith("retry: " + definitions + ":3:40: malformed JSON: ");
        assertThat(directory.toFile().list()).isEmpty();
    }

    @Test
    void neverReplacesAFileUnlessForced(@TempDir Path directory) throws IOException {
        Path spec = Files.writeString(directory.resolve("retry.yml"), "version: 1\n");
        String definitions = SHAPES.resolve("003-master-retry-failed/definitions.json").toString();

        int refused = run("adopt", "--definitions", definitions, "--out", spec.toString());

        assertThat(refused).isEqualTo(RetryCommand.ERROR);
        assertThat(err.toString()).contains(spec + ": exists already; adopt replaces a file only when told to (--force)");
        assertThat(Files.readString(spec)).isEqualTo("version: 1\n");
        assertThat(directory.resolve("retry.adoption.json")).doesNotExist();

        int forced = run("adopt", "--definitions", definitions, "--out", spec.toString(), "--force");

        assertThat(forced).isEqualTo(RetryCommand.OK);
        assertThat(Files.readString(spec)).startsWith("# Drafted by `retry adopt`");
        assertThat(directory.toFile().list()).containsExactlyInAnyOrder("retry.yml", "retry.adoption.json");
    }

    private int run(String... arguments) {
        CommandLine command = RetryCommand.commandLine();
        command.setOut(new PrintWriter(out));
        command.setErr(new PrintWriter(err));
        return command.execute(arguments);
    }
}
