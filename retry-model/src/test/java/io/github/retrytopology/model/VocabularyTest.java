package io.github.retrytopology.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.retrytopology.model.headers.DeathField;
import io.github.retrytopology.model.headers.DeathReason;
import io.github.retrytopology.model.headers.Header;
import io.github.retrytopology.model.topology.Exchange;
import io.github.retrytopology.model.topology.QueueArguments;
import io.github.retrytopology.model.topology.QueueSetting;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The broker's words, and the headers this project writes, are spelt once, in the model: no main source of another
 * module writes one of them as a string literal.
 */
class VocabularyTest {

    private static final Path ROOT = Path.of("..");
    private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** Files that still spell a word, and why they may: none. */
    private static final Map<String, Set<String>> ALLOWED = Map.of();

    @Test
    void everySettingHeaderAndReasonIsDeclaredOnce() throws IllegalAccessException {
        List<String> words = words();

        assertThat(words).doesNotHaveDuplicates().contains("x-message-ttl", "message-ttl", "x-queue-type",
                "delayed-retry-min", "retry-attempts", "x-death", "x-delivery-count", "routing-keys", "delivery_limit");
    }

    @Test
    void noOtherModuleSpellsTheModelsWords() throws IOException, IllegalAccessException {
        Set<String> words = new TreeSet<>(words());
        List<Path> sources = mainSources();
        assertThat(sources).as("the main sources of the other modules, under %s", ROOT.toAbsolutePath().normalize())
                .anyMatch(path -> path.toString().contains("retry-runtime"))
                .anyMatch(path -> path.toString().contains("retry-operations"));

        List<String> spelt = new ArrayList<>();
        for (Path source : sources) {
            String file = ROOT.relativize(source).toString().replace('\\', '/');
            Set<String> allowed = ALLOWED.getOrDefault(file, Set.of());
            List<String> lines = Files.readAllLines(source, StandardCharsets.UTF_8);
            for (int line = 0; line < lines.size(); line++) {
                Matcher literal = LITERAL.matcher(lines.get(line));
                while (literal.find()) {
                    String word = literal.group(1);
                    if (words.contains(word) && !allowed.contains(word)) {
                        spelt.add(file + ":" + (line + 1) + " \"" + word + "\"");
                    }
                }
            }
        }

        assertThat(spelt).as("words the model declares, spelt again; take them from QueueSetting, QueueArguments, "
                + "Header, DeathField, DeathReason or Exchange").isEmpty();
    }

    /**
     * The words the model declares that are distinctive enough to find: every queue setting (by both spellings),
     * header, x-death reason, the x-death fields with a hyphen (the others, such as {@code queue}, name other
     * things too), the dead-lettering values and the delayed-message exchange's words.
     */
    private static List<String> words() throws IllegalAccessException {
        List<String> words = new ArrayList<>();
        for (QueueSetting<?> setting : QueueSetting.ALL) {
            words.add(setting.name());
            words.add(setting.argument());
        }
        for (Object header : constants(Header.class)) {
            words.add(((Header<?>) header).name());
        }
        for (Object field : constants(DeathField.class)) {
            String name = ((DeathField<?>) field).name();
            if (name.contains("-")) {
                words.add(name);
            }
        }
        Arrays.stream(DeathReason.values()).map(DeathReason::id).forEach(words::add);
        words.addAll(List.of(QueueArguments.AT_LEAST_ONCE, QueueArguments.AT_MOST_ONCE, QueueArguments.REJECT_PUBLISH,
                Exchange.DELAYED_MESSAGE, Exchange.DELAYED_TYPE));
        return words;
    }

    /** The public static constants of a class that are of its own type. */
    private static List<Object> constants(Class<?> type) throws IllegalAccessException {
        List<Object> constants = new ArrayList<>();
        for (Field field : type.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == type) {
                constants.add(field.get(null));
            }
        }
        assertThat(constants).as("constants of %s", type.getSimpleName()).isNotEmpty();
        return constants;
    }

    private static List<Path> mainSources() throws IOException {
        List<Path> sources = new ArrayList<>();
        try (Stream<Path> modules = Files.list(ROOT)) {
            for (Path module : modules.filter(path -> !path.getFileName().toString().equals("retry-model")).toList()) {
                Path main = module.resolve("src/main/java");
                if (Files.isDirectory(main)) {
                    try (Stream<Path> files = Files.walk(main)) {
                        files.filter(path -> path.toString().endsWith(".java")).forEach(sources::add);
                    }
                }
            }
        }
        return sources;
    }
}
