package io.github.retrytopology.maven.generator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.retrytopology.model.schema.SpecSchema;
import java.nio.file.Path;

/**
 * The JSON Schema of {@code retry.yml} as a file: the model derives the document, Jackson prints it, two spaces
 * deep, in ASCII (every other character escaped), with LF line ends and a final one, whatever the platform, so
 * that every build writes the same bytes and no invisible character hides in the file.
 */
public final class SchemaJson {

    private SchemaJson() {
    }

    /** The schema's text. */
    public static String text() {
        DefaultIndenter lf = new DefaultIndenter("  ", "\n");
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter()
                .withSeparators(Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER))
                .withObjectIndenter(lf)
                .withArrayIndenter(lf);
        try {
            return new ObjectMapper().writer(printer).with(JsonWriteFeature.ESCAPE_NON_ASCII)
                    .writeValueAsString(SpecSchema.document()) + "\n";
        } catch (JsonProcessingException e) {
            throw new GenerationException("the schema, a tree of maps and lists, could not be printed: " + e, e);
        }
    }

    static GeneratedFile render(Path file) {
        return GeneratedFile.of(file, text());
    }
}
