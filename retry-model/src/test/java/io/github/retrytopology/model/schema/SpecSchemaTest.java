package io.github.retrytopology.model.schema;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.retrytopology.model.read.SpecKey;
import io.github.retrytopology.model.read.SpecMapping;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import javax.lang.model.SourceVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The schema holds every key the reader takes, in every mapping that takes it, required where the reader requires
 * it, and no other: a key added to the reader without the schema fails here (and in {@code SpecSchema}'s switch,
 * which does not compile without a case for it).
 */
class SpecSchemaTest {

    private static final Map<String, Object> DOCUMENT = SpecSchema.document();

    @ParameterizedTest(name = "{0}")
    @EnumSource(SpecMapping.class)
    void everyMappingHasExactlyTheReadersKeys(SpecMapping mapping) {
        Map<String, Object> schema = schemaOf(mapping);

        assertThat(map(schema.get("properties")).keySet()).containsExactlyElementsOf(mapping.names());
        assertThat(schema.get("additionalProperties")).isEqualTo(false);
        List<String> required = mapping.keys().stream().filter(SpecKey::required).map(SpecKey::yamlName).toList();
        assertThat(schema.getOrDefault("required", List.of())).isEqualTo(required);
    }

    @Test
    void describesEveryKey() {
        for (SpecMapping mapping : SpecMapping.values()) {
            Map<String, Object> properties = map(schemaOf(mapping).get("properties"));
            for (SpecKey key : mapping.keys()) {
                Map<String, Object> property = resolve(map(properties.get(key.yamlName())));
                assertThat(property.get("description")).as("%s in %s", key, mapping).isEqualTo(key.description());
            }
        }
    }

    @Test
    void listsOnlyJavaKeywords() {
        assertThat(SpecSchema.JAVA_KEYWORDS).allSatisfy(word -> assertThat(SourceVersion.isKeyword(word)).isTrue());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"com.acme.retry", "javax.crypto.acme", "été.retry", "_x.record.var", "c1.µ.yield", "a"})
    void takesThePackagesTheValidatorTakes(String javaPackage) {
        Map<String, Object> schema = map(map(DOCUMENT.get("properties")).get("package"));

        assertThat(javaPackage).matches(Pattern.compile((String) schema.get("pattern")));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"Com.acme", "com.acme$retry", "com..acme", "com.2acme", "com.acme\u200b"})
    void refusesPackagesThatAreNoJavaNames(String javaPackage) {
        Map<String, Object> schema = map(map(DOCUMENT.get("properties")).get("package"));

        assertThat(javaPackage).doesNotMatch(Pattern.compile((String) schema.get("pattern")));
    }

    private static Map<String, Object> schemaOf(SpecMapping mapping) {
        Map<String, Object> properties = map(DOCUMENT.get("properties"));
        Map<String, Object> service = map(map(properties.get("services")).get("additionalProperties"));
        Map<String, Object> definitions = map(DOCUMENT.get("definitions"));
        return switch (mapping) {
            case ROOT -> DOCUMENT;
            case DEFAULTS_MAPPING -> map(properties.get("defaults"));
            case SERVICE -> service;
            case ROUTE -> map(((List<?>) map(map(map(service.get("properties")).get("routingKeys")).get("items"))
                    .get("anyOf")).get(1));
            case BACKOFF_MAPPING -> map(definitions.get("backoff"));
        };
    }

    /** A property's schema, or the definition it refers to. */
    private static Map<String, Object> resolve(Map<String, Object> property) {
        Object reference = property.get("$ref");
        if (reference == null) {
            return property;
        }
        String name = ((String) reference).substring("#/definitions/".length());
        return map(map(DOCUMENT.get("definitions")).get(name));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }
}
