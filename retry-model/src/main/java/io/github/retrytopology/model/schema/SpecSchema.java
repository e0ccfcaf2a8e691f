package io.github.retrytopology.model.schema;

import io.github.retrytopology.model.BindingKey;
import io.github.retrytopology.model.Names;
import io.github.retrytopology.model.Protocol;
import io.github.retrytopology.model.QueueSettings;
import io.github.retrytopology.model.QueueType;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.decision.DelayBackend;
import io.github.retrytopology.model.decision.Durations;
import io.github.retrytopology.model.read.SpecKey;
import io.github.retrytopology.model.read.SpecMapping;
import io.github.retrytopology.model.validate.SpecValidator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The JSON Schema (draft 7) of {@code retry.yml}, for editors: completion, hover and checking as one types. It is
 * derived from the reader's keys ({@link SpecMapping}, {@link SpecKey}) and from the validator's values and
 * limits, so that the schema and the build cannot disagree on what a spec may hold.
 *
 * <p>The schema never refuses what the build accepts: each of its rules is one of the reader's or validator's,
 * or a weaker form of it where a schema cannot say it all (a Java name is checked for its shape in ASCII, not for
 * every Unicode letter javac takes; a limit in bytes is checked in characters). What only the validator can
 * check stays the validator's: names that collide once derived, routing keys that shadow each other, delays
 * that grow past RabbitMQ's limit, the JDK's packages.
 *
 * <p>The document is a tree of maps, lists, strings, numbers and booleans, in a stable order, for a JSON
 * writer to print.
 */
public final class SpecSchema {

    /** The JSON Schema dialect: draft 7, which the YAML language server and IntelliJ both read. */
    public static final String DIALECT = "http://json-schema.org/draft-07/schema#";

    /** The file name the schema is shipped and written under. */
    public static final String FILE_NAME = "retry.schema.json";

    /** Java's keywords and literals, which no part of a Java name may be. */
    static final List<String> JAVA_KEYWORDS = List.of("_", "abstract", "assert", "boolean", "break", "byte", "case",
            "catch", "char", "class", "const", "continue", "default", "do", "double", "else", "enum", "extends",
            "false", "final", "finally", "float", "for", "goto", "if", "implements", "import", "instanceof", "int",
            "interface", "long", "native", "new", "null", "package", "private", "protected", "public", "return",
            "short", "static", "strictfp", "super", "switch", "synchronized", "this", "throw", "throws", "transient",
            "true", "try", "void", "volatile", "while");

    /**
     * A character of a Java name beyond ASCII, let through for javac to judge, but for those it ignores in names
     * (such as U+200B, zero width space), which the validator refuses: the JDK's own list, as ranges.
     */
    private static final String BEYOND_ASCII = "[^\\x00-\\x7F" + ignorableRanges() + "]";
    /** A letter of a Java name. */
    private static final String LETTER = "(?:[A-Za-z_]|" + BEYOND_ASCII + ")";
    private static final String LETTER_OR_DIGIT = "(?:[A-Za-z0-9_]|" + BEYOND_ASCII + ")";
    /** The first word of a package: no upper-case start, which Java could read as a class. */
    private static final String FIRST_PACKAGE_WORD = "(?:[a-z_]|" + BEYOND_ASCII + ")" + LETTER_OR_DIGIT + "*";
    private static final String PACKAGE_WORD = LETTER + LETTER_OR_DIGIT + "*";
    private static final String PACKAGE = FIRST_PACKAGE_WORD + "(?:\\." + PACKAGE_WORD + ")*";
    /** A class's own name, which may hold a {@code $} (a nested class's binary name), as a handler's may. */
    private static final String CLASS_WORD = "(?:[A-Za-z_$]|" + BEYOND_ASCII + ")(?:[A-Za-z0-9_$]|" + BEYOND_ASCII + ")*";
    private static final String KEYWORD_ALTERNATIVES = String.join("|", JAVA_KEYWORDS);

    /** A word of a binding key: no dot, no wildcard inside it, no white space or control character of ASCII or C1. */
    private static final String LITERAL_WORD = "[^.*#\\x00-\\x20\\x7F-\\x9F]+";
    private static final String KEY_WORD = "(?:" + LITERAL_WORD + "|\\*|#)";
    private static final String WILDCARD_WORD = "(?:^|\\.)[*#](?:\\.|$)";
    private static final String NO_CONTROL_CHARACTER = "^[^\\x00-\\x1F\\x7F-\\x9F]*$";

    private SpecSchema() {
    }

    /** The schema, as a tree of maps and lists, in the order it is printed. */
    public static Map<String, Object> document() {
        Map<String, Object> document = object(
                "$schema", DIALECT,
                "$comment", "Generated from retry-model's rules (SpecSchema); do not edit by hand.",
                "title", "retry.yml",
                "description", "Retry topology for RabbitMQ, version " + SpecValidator.VERSION + ": the services of "
                        + "one exchange, the routing keys each consumes, their delay tiers and maximum attempts.");
        document.putAll(mapping(SpecMapping.ROOT));
        Map<String, Object> definitions = new LinkedHashMap<>();
        for (SpecKey key : SpecKey.values()) {
            if (shared(key)) {
                definitions.put(key.yamlName(), described(key, value(key)));
            }
        }
        definitions.put("duration", duration());
        definitions.put("className", className());
        document.put("definitions", definitions);
        return document;
    }

    /** The schema of a key's value, without its description: one case per key, so that none can be missed. */
    private static Map<String, Object> value(SpecKey key) {
        return switch (key) {
            case VERSION -> object("enum", List.of(SpecValidator.VERSION, String.valueOf(SpecValidator.VERSION)));
            case PACKAGE -> object(
                    "type", "string",
                    "pattern", "^" + PACKAGE + "$",
                    "maxLength", Names.MAX_JAVA_NAME_BYTES,
                    "not", object("anyOf", List.of(
                            object("pattern", "(?:^|\\.)(?:" + KEYWORD_ALTERNATIVES + ")(?:\\.|$)"),
                            object("pattern", "^java(?:\\.|$)"))));
            case VHOST -> brokerName(List.of());
            // A number or a boolean, which the reader takes as text, never starts with amq.: "pattern" alone would
            // hold for it, and "not" refuse it.
            case EXCHANGE, QUEUE -> brokerName(List.of(object("not", object("type", "string", "pattern", "^amq\\."))));
            case QUEUE_SETTINGS -> object("enum", Arrays.stream(QueueSettings.values()).map(QueueSettings::id).toList());
            case DEFAULTS -> mapping(SpecMapping.DEFAULTS_MAPPING);
            case SERVICES -> object(
                    "type", "object",
                    "minProperties", 1,
                    // Every service needs its own queue and its parking lot.
                    "maxProperties", RetrySpec.MAX_QUEUES / 2,
                    "propertyNames", object(
                            "pattern", "^" + Names.SERVICE_NAME_REGEX + "$",
                            // Its parking lot's name must fit RabbitMQ's limit, and a service name is ASCII.
                            "maxLength", Names.MAX_NAME_BYTES - Names.parkingLot("").length()),
                    "additionalProperties", mapping(SpecMapping.SERVICE));
            case ROUTING_KEYS -> object(
                    "type", "array",
                    "minItems", 1,
                    "maxItems", Service.MAX_ROUTING_KEYS,
                    // Two equal entries are the same key twice.
                    "uniqueItems", true,
                    "items", object("anyOf", List.of(plainRoutingKey(), mapping(SpecMapping.ROUTE))));
            case MAX_ATTEMPTS -> object("anyOf", List.of(
                    object("type", "integer", "minimum", 1, "maximum", Integer.MAX_VALUE),
                    object("type", "string", "pattern", "^\\+?0*[1-9][0-9]*$")));
            case DELAYS -> object("type", "array", "minItems", 1, "items", object("$ref", "#/definitions/duration"));
            case BACKOFF -> mapping(SpecMapping.BACKOFF_MAPPING);
            case DELAY_BY -> object("enum", Arrays.stream(DelayBackend.values()).map(DelayBackend::id).toList());
            case PROTOCOL -> object("enum", Arrays.stream(Protocol.values()).map(Protocol::id).toList());
            case QUEUE_TYPE -> object("enum", Arrays.stream(QueueType.values()).map(QueueType::id).toList());
            case NON_RETRYABLE -> object("type", "array", "items", object("$ref", "#/definitions/className"));
            case KEY -> bindingKey(KEY_WORD);
            case HANDLER -> object(
                    "type", "string",
                    "pattern", "^" + CLASS_WORD + "$",
                    "maxLength", Names.MAX_JAVA_NAME_BYTES,
                    "not", object("enum", reservedHandlerNames()));
            case PAYLOAD -> object("$ref", "#/definitions/className");
            case INITIAL, MAX -> object("$ref", "#/definitions/duration");
            case MULTIPLIER -> object("anyOf", List.of(
                    object("type", "number", "minimum", 1),
                    object("type", "string", "pattern", "^0*[1-9][0-9]*(?:\\.[0-9]+)?$")));
        };
    }

    /** A mapping: its keys, those it requires, that it takes no other, and the rules across its keys. */
    private static Map<String, Object> mapping(SpecMapping mapping) {
        Map<String, Object> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        for (SpecKey key : mapping.keys()) {
            properties.put(key.yamlName(), shared(key) ? object("$ref", "#/definitions/" + key.yamlName())
                    : described(key, value(key)));
            if (key.required()) {
                required.add(key.yamlName());
            }
        }
        // An empty 'defaults:' sets nothing; every other mapping is one.
        Map<String, Object> schema = object("type", mapping == SpecMapping.DEFAULTS_MAPPING
                ? List.of("object", "null") : "object", "properties", properties);
        if (!required.isEmpty()) {
            schema.put("required", required);
        }
        schema.put("additionalProperties", false);
        List<Object> rules = switch (mapping) {
            case ROOT -> List.of(maxAttemptsSomewhere(), delaysWhereRetried());
            case DEFAULTS_MAPPING, SERVICE -> List.of(notBoth());
            case ROUTE -> List.of(handlerForWildcards());
            case BACKOFF_MAPPING -> List.of();
        };
        if (!rules.isEmpty()) {
            schema.put("allOf", rules);
        }
        return schema;
    }

    /** A mapping sets delays or backoff, not both. */
    private static Map<String, Object> notBoth() {
        return object("not", object("required", List.of(SpecKey.DELAYS.yamlName(), SpecKey.BACKOFF.yamlName())));
    }

    /** A key with wildcards needs a handler's name. */
    private static Map<String, Object> handlerForWildcards() {
        return object(
                "if", object("required", List.of(SpecKey.KEY.yamlName()), "properties",
                        object(SpecKey.KEY.yamlName(), object("type", "string", "pattern", WILDCARD_WORD))),
                "then", object("required", List.of(SpecKey.HANDLER.yamlName())));
    }

    /** Every service has maxAttempts, its own or from defaults. */
    private static Map<String, Object> maxAttemptsSomewhere() {
        return object(
                "if", defaultsHold(object("required", List.of(SpecKey.MAX_ATTEMPTS.yamlName()))),
                "else", eachService(object("required", List.of(SpecKey.MAX_ATTEMPTS.yamlName()))));
    }

    /**
     * A service that retries has delays, its own or from defaults. Stated for a service that sets maxAttempts
     * itself; one that inherits it is left to the validator.
     */
    private static Map<String, Object> delaysWhereRetried() {
        Map<String, Object> neverRetries = object("properties", object(SpecKey.MAX_ATTEMPTS.yamlName(),
                object("anyOf", List.of(object("const", 1), object("type", "string", "pattern", "^\\+?0*1$")))));
        return object(
                "if", defaultsHold(object("anyOf", List.of(
                        object("required", List.of(SpecKey.DELAYS.yamlName())),
                        object("required", List.of(SpecKey.BACKOFF.yamlName()))))),
                "else", eachService(object("anyOf", List.of(
                        object("required", List.of(SpecKey.DELAYS.yamlName())),
                        object("required", List.of(SpecKey.BACKOFF.yamlName())),
                        object("not", object("required", List.of(SpecKey.MAX_ATTEMPTS.yamlName()))),
                        neverRetries))));
    }

    private static Map<String, Object> defaultsHold(Map<String, Object> condition) {
        Map<String, Object> defaults = object("type", "object");
        defaults.putAll(condition);
        return object("required", List.of(SpecKey.DEFAULTS.yamlName()),
                "properties", object(SpecKey.DEFAULTS.yamlName(), defaults));
    }

    private static Map<String, Object> eachService(Map<String, Object> rule) {
        return object("properties", object(SpecKey.SERVICES.yamlName(), object("additionalProperties", rule)));
    }

    /** An entry of routingKeys written as the key alone: a key without wildcards, since those need a handler. */
    private static Map<String, Object> plainRoutingKey() {
        Map<String, Object> schema = object("description",
                "A binding key without wildcards; its handler is named after its words.");
        schema.putAll(bindingKey(LITERAL_WORD));
        // A key of one such word names its handler that word, which no handler may be.
        schema.put("not", object("enum", reservedHandlerNames()));
        return schema;
    }

    private static List<String> reservedHandlerNames() {
        return Stream.concat(JAVA_KEYWORDS.stream(), Names.RESERVED_HANDLER_NAMES.stream().sorted()).toList();
    }

    /**
     * The characters beyond ASCII in the Basic Multilingual Plane that javac ignores in names, as the ranges of a
     * regular expression's character class. (Those beyond it cannot be written in a class that JavaScript reads
     * without its Unicode flag; the validator still refuses them.) Characters beyond Latin-1 stand as themselves:
     * JSON escapes them, and not every engine reads a regular expression's own {@code \\u} escape.
     */
    private static String ignorableRanges() {
        StringBuilder ranges = new StringBuilder();
        int c = 0x80;
        while (c <= 0xFFFF) {
            if (!Character.isIdentifierIgnorable(c)) {
                c++;
                continue;
            }
            int last = c;
            while (last + 1 <= 0xFFFF && Character.isIdentifierIgnorable(last + 1)) {
                last++;
            }
            ranges.append(character(c));
            if (last > c) {
                ranges.append('-').append(character(last));
            }
            c = last + 1;
        }
        return ranges.toString();
    }

    /**
     * A binding key. The reader reads every scalar as text, so a number or a boolean is a key too; a text is
     * checked for its words.
     */
    private static Map<String, Object> bindingKey(String word) {
        return object(
                "type", List.of("string", "number", "boolean"),
                "pattern", "^" + word + "(?:\\." + word + ")*$",
                "maxLength", BindingKey.MAX_BYTES);
    }

    /** A vhost, an exchange or a queue: any scalar, which as text is not empty and holds no control character. */
    private static Map<String, Object> brokerName(List<Object> more) {
        Map<String, Object> schema = object(
                "type", List.of("string", "number", "boolean"),
                "minLength", 1,
                "maxLength", Names.MAX_NAME_BYTES,
                "pattern", NO_CONTROL_CHARACTER);
        if (!more.isEmpty()) {
            schema.put("allOf", more);
        }
        return schema;
    }

    private static Map<String, Object> duration() {
        return object(
                "description", "A positive whole number and a unit (ms, s, m, h, d), such as 500ms, 10s, 5m, 2h or 1d; "
                        + "at most 2^32-1 ms (about 49.7 days).",
                "type", "string",
                "pattern", "^(?=[0-9]*[1-9])" + Durations.SYNTAX + "$");
    }

    private static Map<String, Object> className() {
        return object(
                "description", "The binary name of a class, with its package, such as com.acme.media.AlbumDeleted; "
                        + "a nested class after a $, as in com.acme.Outer$Inner.",
                "type", "string",
                "pattern", "^" + PACKAGE + "\\." + CLASS_WORD + "$",
                "maxLength", Names.MAX_JAVA_NAME_BYTES,
                "not", object("pattern", "(?:^|[.$])(?:" + KEYWORD_ALTERNATIVES + ")(?:[.$]|$)"));
    }

    private static String character(int c) {
        return c <= 0xFF ? String.format("\\x%02X", c) : String.valueOf((char) c);
    }

    /** Whether more than one mapping takes this key, which is then defined once. */
    private static boolean shared(SpecKey key) {
        return Arrays.stream(SpecMapping.values()).filter(mapping -> mapping.keys().contains(key)).count() > 1;
    }

    /** The value's schema with the key's description first; a reference keeps its description in its target. */
    private static Map<String, Object> described(SpecKey key, Map<String, Object> value) {
        if (value.containsKey("$ref") && !shared(key)) {
            // Draft 7 ignores whatever stands beside a $ref: the description goes around it.
            return object("description", key.description(), "allOf", List.of(value));
        }
        Map<String, Object> schema = object("description", key.description());
        schema.putAll(value);
        return schema;
    }

    /** A map of alternating keys and values, in order. */
    private static Map<String, Object> object(Object... entries) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < entries.length; i += 2) {
            map.put((String) entries[i], entries[i + 1]);
        }
        return map;
    }
}
