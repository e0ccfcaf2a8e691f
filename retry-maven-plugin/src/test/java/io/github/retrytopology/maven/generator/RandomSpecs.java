package io.github.retrytopology.maven.generator;

import io.github.retrytopology.model.load.Specs;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Specs made at random from one seed: valid ones that use every corner of the spec language at once (names
 * that clash with generated code, non-ASCII text, kept queues, the longest delays, flow and block style, any line
 * ends), and mutations of them that a careless or hostile user could write. Every spec has a package of its own.
 */
final class RandomSpecs {

    /** Payload classes the specs name; {@code src/test/resources/payloads} holds the ones not in the JDK. */
    static final List<String> PAYLOADS = List.of("q.r.Event", "x.y.Exception", "x.y.Outer$Exception",
            "a.b.DeliveryContext", "java.util.List", "java.util.Map$Entry", "java.lang.String",
            "com.acme.benchmark.Change", "x.y.Generated", "x.y.SuppressWarnings", "handler.events.Event",
            "routes.events.Event", "x.y.RetryTopology", "x.y.Routes", "x.y.Builder", "q.r.Évent", "straße.x.Event",
            "x.y.Outer$_1");

    private static final List<String> SERVICE_WORDS = List.of("email", "string", "list", "service", "retry-spec",
            "generated", "suppress-warnings", "standard-charsets", "object", "exception", "class-x", "a-1", "v2",
            "builder", "routes", "x");
    private static final List<String> PACKAGE_WORDS = List.of("retry", "été", "_x", "record", "var", "yield",
            "sealed", "permits", "µ", "ab1", "routes", "handler", "string");
    /** Words javac cannot take as they are: the validator must refuse them. */
    private static final List<String> BAD_PACKAGE_WORDS = List.of("acme\u200b", "q\u0000", "a$b", "Upper");
    private static final List<String> JDK_PACKAGES = List.of("javax.crypto", "sun.misc", "javax.annotation.processing",
            "java.util", "jdk.internal.misc");
    private static final List<String> KEY_WORDS = List.of("order", "created", "é", "中文", "😀", "2fa", "a-b", "a_b",
            "x1", "Ünïcödé", "new", "class", "$", "wait", "to-string", "A");
    private static final List<String> HANDLERS = List.of("h", "hé", "$h", "_h", "wait2", "µ", "handle", "ç",
            "Upper", "on");
    private static final List<String> BAD_HANDLERS = List.of("h\u200b", "h\u00ad", "h\u2060", "h\u0000");
    private static final List<String> EXCHANGES = List.of("events", "a \"quoted\" */ @see \\u000a x",
            "ünïcödé.events", "emoji😀", "sp ace", "amq", "x".repeat(255), "/slash/", "tab-less\\t", "#.*",
            "é".repeat(127));
    /**
     * Queues a service may keep, as hand-rolled topologies name them, and names RabbitMQ or the validator refuse:
     * over 255 bytes, reserved, or another service's queue, tier or parking lot.
     */
    private static final List<String> KEPT_QUEUES = List.of("ucenter@user", "primary-queue", "service_a_input_q",
            "orders-worker", "a \"quoted\" */ @see \\u000a x", "ünïcödé.queue", "😀", "sp ace", "#.*", "123",
            "x".repeat(255), "é".repeat(127) + "x", "é".repeat(128), "amq.x", "", "s0", "s1.retry.1", "email.parking-lot",
            "shared", "shared.migrating");
    private static final List<String> VHOSTS = List.of("/", "orders", "v-é", "a/b", "with space", "x%2Fy", "😀");
    private static final List<String> DELAYS = List.of("1ms", "500ms", "10s", "1m", "2h", "1d", "2147483647ms",
            "2147483648ms", "4294967295ms", "49d", "90m");
    private static final List<String> CLASSES = List.of("java.lang.IllegalStateException", "x.y.Outer$Problem",
            "com.acme.Bad", "a.b.C");
    private static final List<String> MUTATION_TEXT = List.of("\n", "\r", " ", "\t", ":", "- ", "[", "]", "{", "}",
            ",", "#", "*", "&a ", "*a", "!", "!!int ", "!!str ", "! ", "\"", "'", "\\", ".", "$", "\u0000", "\u0007",
            "\u0085", "\u2028", "\u2029", "\uFEFF", "é", "😀", "0", "-1", "2147483648", "1.5", "10", "10x", "~",
            "null", "\"\\udfff\"", "\"\\x00\"", "\"a\\rb\"", "x".repeat(300), "#.#.#", "a..b", "  ", "<<: {}",
            "!!java.net.URL [\"http://x/\"]", "&b [1, *b]");

    private final Random random;

    RandomSpecs(long seed) {
        this.random = new Random(seed);
    }

    /** A spec as a careless or hostile user could write it: valid, or a valid one with a few mutations. */
    byte[] next(int index) {
        String valid = valid(index);
        int kind = random.nextInt(10);
        if (kind < 4) {
            return encode(valid);
        }
        String text = valid;
        int mutations = 1 + random.nextInt(3);
        for (int i = 0; i < mutations; i++) {
            text = mutate(text);
        }
        byte[] bytes = encode(text);
        return kind == 9 ? mutateBytes(bytes) : bytes;
    }

    /** A valid spec, as far as its parts go: a mix of them may still be refused, for names that collide. */
    String valid(int index) {
        String newline = pick(List.of("\n", "\n", "\n", "\r\n", "\r"));
        StringBuilder yaml = new StringBuilder();
        if (random.nextInt(8) == 0) {
            yaml.append("# spec ").append(index).append(" — ").append(pick(KEY_WORDS)).append('\n');
        }
        yaml.append("version: 1\n");
        String javaPackage = random.nextInt(40) == 0 ? pick(JDK_PACKAGES)
                : "c" + index + "." + pick(random.nextInt(20) == 0 ? BAD_PACKAGE_WORDS : PACKAGE_WORDS)
                        + (random.nextBoolean() ? "." + pick(PACKAGE_WORDS) : "");
        yaml.append("package: ").append(quoted(javaPackage)).append('\n');
        if (random.nextBoolean()) {
            yaml.append("vhost: ").append(quoted(pick(VHOSTS))).append('\n');
        }
        yaml.append("exchange: ").append(quoted(pick(EXCHANGES))).append('\n');
        if (random.nextInt(3) == 0) {
            yaml.append("queueSettings: ").append(pick(List.of("policies", "arguments"))).append('\n');
        }
        boolean defaults = random.nextBoolean();
        if (defaults) {
            yaml.append("defaults:\n").append(policy("  ", true));
        }
        yaml.append("services:\n");
        int services = 1 + random.nextInt(random.nextInt(20) == 0 ? 12 : 4);
        Set<String> names = new LinkedHashSet<>();
        for (int s = 0; s < services; s++) {
            String name = serviceName(s);
            if (!names.add(name)) {
                continue;
            }
            yaml.append("  ").append(name).append(":\n");
            if (random.nextInt(6) == 0) {
                String queue = pick(KEPT_QUEUES);
                yaml.append("    queue: ").append(quoted(queue.isEmpty() || random.nextBoolean() ? queue : queue + "-" + s))
                        .append('\n');
            }
            yaml.append(routingKeys(s));
            if (!defaults || random.nextBoolean()) {
                yaml.append(policy("    ", !defaults));
            }
        }
        return yaml.toString().replace("\n", newline);
    }

    private String serviceName(int index) {
        return switch (random.nextInt(6)) {
            case 0 -> pick(SERVICE_WORDS) + "-s" + index;
            case 1 -> "s" + index + "-" + "abcdefghij".repeat(25).substring(0, 5 + random.nextInt(240));
            default -> random.nextBoolean() ? pick(SERVICE_WORDS) + (index == 0 ? "" : "-" + index) : "s" + index;
        };
    }

    private String routingKeys(int service) {
        StringBuilder yaml = new StringBuilder("    routingKeys:\n");
        int keys = 1 + random.nextInt(random.nextInt(20) == 0 ? 20 : 3);
        boolean flow = random.nextInt(4) == 0;
        List<String> entries = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            List<String> words = new ArrayList<>(List.of("k" + service + "x" + k));
            int more = random.nextInt(random.nextInt(20) == 0 ? 60 : 4);
            boolean wildcard = false;
            for (int w = 0; w < more; w++) {
                int choice = random.nextInt(10);
                String word = choice == 0 ? "*" : choice == 1 ? "#" : pick(KEY_WORDS);
                wildcard |= choice < 2;
                words.add(word);
            }
            String key = String.join(".", words);
            while (key.getBytes(StandardCharsets.UTF_8).length > 255) {
                words.remove(words.size() - 1);
                key = String.join(".", words);
            }
            wildcard = key.contains("*") || key.matches(".*(^|\\.)#(\\.|$).*");
            String handler = pick(random.nextInt(40) == 0 ? BAD_HANDLERS : HANDLERS) + service + "x" + k;
            String payload = random.nextInt(3) == 0 ? pick(PAYLOADS) : null;
            if (!wildcard && payload == null && random.nextBoolean()) {
                entries.add(quoted(key));
            } else if (flow || random.nextBoolean()) {
                entries.add("{key: " + quoted(key) + (wildcard || random.nextBoolean() ? ", handler: " + quoted(handler) : "")
                        + (payload == null ? "" : ", payload: " + quoted(payload)) + "}");
            } else {
                entries.add("key: " + quoted(key) + (wildcard || random.nextBoolean() ? "\n        handler: " + quoted(handler)
                        : "") + (payload == null ? "" : "\n        payload: " + quoted(payload)));
            }
        }
        if (flow && entries.stream().noneMatch(entry -> entry.contains("\n"))) {
            return "    routingKeys: [" + String.join(", ", entries) + "]\n";
        }
        for (String entry : entries) {
            yaml.append("      - ").append(entry).append('\n');
        }
        return yaml.toString();
    }

    private String policy(String indent, boolean required) {
        StringBuilder yaml = new StringBuilder();
        int attempts = random.nextInt(8) == 0 ? Integer.MAX_VALUE : 1 + random.nextInt(8);
        if (required || random.nextBoolean()) {
            yaml.append(indent).append("maxAttempts: ").append(attempts).append('\n');
        }
        if (random.nextBoolean()) {
            List<String> delays = new ArrayList<>();
            for (int i = 0; i <= random.nextInt(5); i++) {
                delays.add(pick(DELAYS));
            }
            yaml.append(indent).append("delays: [").append(String.join(", ", delays)).append("]\n");
        } else {
            yaml.append(indent).append("backoff: {initial: ").append(pick(DELAYS)).append(", multiplier: ")
                    .append(pick(List.of("1", "1.5", "2", "3.25", "10"))).append(", max: ")
                    .append(pick(List.of("1d", "4294967295ms", "30m", "49d"))).append("}\n");
        }
        if (random.nextInt(3) == 0) {
            yaml.append(indent).append("queueType: ").append(pick(List.of("quorum", "classic"))).append('\n');
        }
        if (random.nextInt(4) == 0) {
            yaml.append(indent).append("protocol: ").append(pick(List.of("amqp-0.9.1", "amqp-1.0"))).append('\n');
        }
        if (random.nextInt(3) == 0) {
            yaml.append(indent).append("nonRetryable: [").append(quoted(pick(CLASSES))).append("]\n");
        }
        return yaml.toString();
    }

    private String mutate(String text) {
        if (text.isEmpty()) {
            return pick(MUTATION_TEXT);
        }
        int at = random.nextInt(text.length());
        String[] lines = text.split("\n", -1);
        return switch (random.nextInt(9)) {
            case 0 -> text.substring(0, at) + text.substring(at + 1);
            case 1, 2 -> text.substring(0, at) + pick(MUTATION_TEXT) + text.substring(at);
            case 3 -> {
                int end = Math.min(text.length(), at + 1 + random.nextInt(12));
                yield text.substring(0, at) + pick(MUTATION_TEXT) + text.substring(end);
            }
            case 4 -> text.substring(0, at);
            case 5 -> {
                int line = random.nextInt(lines.length);
                lines[line] = lines[line] + "\n" + lines[line];
                yield String.join("\n", lines);
            }
            case 6 -> {
                int first = random.nextInt(lines.length);
                int second = random.nextInt(lines.length);
                String swapped = lines[first];
                lines[first] = lines[second];
                lines[second] = swapped;
                yield String.join("\n", lines);
            }
            case 7 -> {
                int line = random.nextInt(lines.length);
                lines[line] = pick(List.of("  ", "\t", " ")) + lines[line];
                yield String.join("\n", lines);
            }
            default -> {
                int line = random.nextInt(lines.length);
                lines[line] = lines[line].replaceAll(":\\s.*$", java.util.regex.Matcher.quoteReplacement(": " + pick(MUTATION_TEXT)));
                yield String.join("\n", lines);
            }
        };
    }

    private byte[] mutateBytes(byte[] bytes) {
        byte[] bad = switch (random.nextInt(4)) {
            case 0 -> new byte[] {(byte) 0xFF};
            case 1 -> new byte[] {(byte) 0xC3};
            case 2 -> new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80};
            default -> new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        };
        int at = random.nextInt(bytes.length + 1);
        byte[] mutated = new byte[bytes.length + bad.length];
        System.arraycopy(bytes, 0, mutated, 0, at);
        System.arraycopy(bad, 0, mutated, at, bad.length);
        System.arraycopy(bytes, at, mutated, at + bad.length, bytes.length - at);
        return mutated;
    }

    private byte[] encode(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (random.nextInt(20) != 0) {
            return bytes;
        }
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        byte[] withBom = new byte[bytes.length + bom.length];
        System.arraycopy(bom, 0, withBom, 0, bom.length);
        System.arraycopy(bytes, 0, withBom, bom.length, bytes.length);
        return withBom;
    }

    /** A YAML scalar holding exactly this text: plain when it reads as itself, else double-quoted with escapes. */
    private String quoted(String text) {
        if (text.matches("[a-z][a-z0-9._$-]*") && !text.equals("null") && random.nextBoolean()) {
            return text;
        }
        if (!text.contains("'") && random.nextInt(4) == 0 && text.codePoints().noneMatch(c -> c < 0x20 || c >= 0x7F)) {
            return "'" + text + "'";
        }
        StringBuilder quoted = new StringBuilder("\"");
        text.codePoints().forEach(c -> {
            if (c == '"' || c == '\\') {
                quoted.append('\\').appendCodePoint(c);
            } else if (c < 0x20 || c == 0x7F || c == 0x85 || c == 0x2028 || c == 0x2029 || c == 0xFEFF) {
                quoted.append(String.format("\\u%04x", c));
            } else if (c > 0x7F && random.nextInt(4) == 0 && c <= 0xFFFF) {
                quoted.append(String.format("\\u%04x", c));
            } else {
                quoted.appendCodePoint(c);
            }
        });
        return quoted.append('"').toString();
    }

    private <T> T pick(List<T> choices) {
        return choices.get(random.nextInt(choices.size()));
    }
}
