package io.github.retrytopology.maven.generator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.retrytopology.model.schema.SpecSchema;

/**
 * The JSON Schema of {@code retry.yml} as a file: the model derives the document, Jackson prints it, two spaces
 * deep, in ASCII (every other character escaped), with LF line ends and a final one, whatever the platform, so
 * that every build writes the same bytes and no invisible character hides in the file. The repository keeps the
 * text and the plugin's jar ships it; the tests print it anew to prove that both are what the model derives.
 */
final class SchemaJson {

    private SchemaJson() {
    }

    /** The schema's text. */
    static String text() {
        DefaultIndenter lf = new DefaultIndenter("  ", "\n");
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter()
                .withSeparators(Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER))
                .withObjectIndenter(lf)
                .withArrayIndenter(lf);
        try {
            return new ObjectMapper().writer(printer).with(JsonWriteFeature.ESCAPE_NON_ASCII)
                    .writeValueAsString(SpecSchema.document()) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the schema, a tree of maps and lists, could not be printed: " + e, e);
        }
    }
}
