package io.github.retrytopology.model.read;

import io.github.retrytopology.model.problem.Position;
import io.github.retrytopology.model.problem.ProblemCode;
import io.github.retrytopology.model.read.SpecDraft.BackoffDraft;
import io.github.retrytopology.model.read.SpecDraft.PolicyDraft;
import io.github.retrytopology.model.read.SpecDraft.RouteDraft;
import io.github.retrytopology.model.read.SpecDraft.ServiceDraft;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.parser.Parser;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.ReaderException;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Reads the YAML of a spec into a {@link SpecDraft}, checking its shape: that it is UTF-8 and well-formed
 * YAML, that every mapping has only known keys and each key once, that required keys are there, and that
 * each value is a word, a list or a mapping where one belongs. What the values mean is the validator's
 * business.
 *
 * <p>The YAML is composed into nodes and never constructed into objects, so no tag can instantiate a class;
 * every explicit tag, {@code !!str} and {@code !!int} included, is refused all the same, since a spec reads
 * every value as text. The file's size, its nesting and its aliases to collections are bounded, so that a
 * hostile file costs little to refuse.
 *
 * <p>Positions count lines as editors do: a line ends at a line feed, a carriage return, or both. SnakeYAML
 * also ends lines at U+0085, U+2028 and U+2029, so its own line numbers are not used; its character index is.
 */
public final class SpecReader {

    /** The largest spec file read, in bytes. */
    public static final int MAX_BYTES = 1024 * 1024;

    /** The most aliases to lists or mappings a spec may use: enough for sharing, too few for a billion laughs. */
    public static final int MAX_ALIASES = 50;

    /** The deepest nesting of lists and mappings a spec may use; a valid spec needs five. */
    public static final int MAX_NESTING = 20;

    private final String file;
    private final Problems problems;
    /** The index, in code points, at which each line of the file starts; set once the file is decoded. */
    private int[] lineStarts = {0};
    /** The index, in code points, at which each line's end of line starts, or the file ends. */
    private int[] lineEnds = {0};

    private SpecReader(String file, Problems problems) {
        this.file = file;
        this.problems = problems;
    }

    /**
     * Reads a spec's bytes, reporting every problem of shape.
     *
     * @return the draft, or nothing if the file is not a YAML mapping at all
     */
    public static Optional<SpecDraft> read(byte[] content, String file, Problems problems) {
        return new SpecReader(file, problems).read(content);
    }

    private Optional<SpecDraft> read(byte[] content) {
        if (content.length > MAX_BYTES) {
            problems.report(start(), "", ProblemCode.FILE_TOO_LARGE, "the file is larger than " + MAX_BYTES
                    + " bytes, the most a spec may be");
            return Optional.empty();
        }
        return decode(content).flatMap(this::compose).flatMap(this::readRoot);
    }

    private Optional<String> decode(byte[] content) {
        int offset = 0;
        if (startsWith(content, 0xEF, 0xBB, 0xBF)) {
            offset = 3;
        } else if (startsWith(content, 0xFE, 0xFF) || startsWith(content, 0xFF, 0xFE)) {
            problems.report(start(), "", ProblemCode.NOT_UTF8,
                    "the file starts with a UTF-16 byte order mark; save it as UTF-8");
            return Optional.empty();
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(content, offset, content.length - offset);
        CharBuffer out = CharBuffer.allocate(content.length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        String text = out.flip().toString();
        indexLines(text);
        if (result.isError()) {
            int bad = content[in.position()] & 0xFF;
            problems.report(positionAt(text.codePointCount(0, text.length())), "", ProblemCode.NOT_UTF8,
                    String.format("byte 0x%02X is not valid UTF-8; save the file as UTF-8", bad));
            return Optional.empty();
        }
        return Optional.of(text);
    }

    private Optional<Node> compose(String text) {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(MAX_ALIASES);
        options.setAllowRecursiveKeys(false);
        options.setNestingDepthLimit(MAX_NESTING);
        options.setCodePointLimit(MAX_BYTES);
        // Nothing is ever constructed from the nodes, so any tag is harmless to compose; each is then refused
        // with its position by TagRefusingParser rather than as a syntax error.
        options.setTagInspector(tag -> true);
        StreamReader reader = new StreamReader(text);
        try {
            Parser parser = new TagRefusingParser(new ParserImpl(reader, options));
            Composer composer = new Composer(parser, new Resolver(), options);
            if (!composer.checkNode()) {
                reportEmpty();
                return Optional.empty();
            }
            Node root = composer.getNode();
            if (composer.checkNode()) {
                Node second = composer.getNode();
                problems.report(at(second), "", ProblemCode.MULTIPLE_DOCUMENTS,
                        "a second YAML document starts here; a spec is one document");
            }
            return Optional.of(root);
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String problem = e.getProblem() != null ? e.getProblem() : e.getMessage();
            Mark contextMark = e.getContextMark();
            boolean elsewhere = contextMark != null && mark != null && contextMark.getIndex() != mark.getIndex();
            Position contextPosition = elsewhere ? at(contextMark) : null;
            String context = e.getContext() == null ? "" : " (" + e.getContext() + (elsewhere ? " that starts at line "
                    + contextPosition.line() + ", column " + contextPosition.column() : "") + ")";
            problems.report(at(mark), "", ProblemCode.YAML_SYNTAX, "this is not valid YAML: " + problem + context);
        } catch (ReaderException e) {
            problems.report(positionAt(e.getPosition()), "", ProblemCode.YAML_SYNTAX,
                    String.format("character U+%04X is not allowed in YAML", e.getCodePoint()));
        } catch (YAMLException e) {
            problems.report(start(), "", ProblemCode.YAML_SYNTAX, "the file is refused: " + e.getMessage());
        } catch (RuntimeException e) {
            // SnakeYAML itself fails on some malformed input, such as an escape cut short by the end of the file.
            problems.report(positionAt(reader.getIndex()), "", ProblemCode.YAML_SYNTAX,
                    "this is not valid YAML, and the YAML reader stopped here: " + e.getMessage());
        }
        return Optional.empty();
    }

    private Optional<SpecDraft> readRoot(Node root) {
        if (isNull(root)) {
            reportEmpty();
            return Optional.empty();
        }
        if (!(root instanceof MappingNode mapping)) {
            problems.report(at(root), "", ProblemCode.WRONG_TYPE, "the document is " + describe(root)
                    + "; expected a mapping with version, package, exchange and services");
            return Optional.empty();
        }
        Fields fields = new Fields(mapping, "", SpecMapping.ROOT);
        Located<String> version = fields.scalar(SpecKey.VERSION, "the spec's version, 1");
        Located<String> javaPackage = fields.scalar(SpecKey.PACKAGE, "a Java package name such as com.acme.retry");
        Located<String> vhost = fields.scalar(SpecKey.VHOST, "a virtual host name such as /");
        Located<String> exchange = fields.scalar(SpecKey.EXCHANGE, "the name of the topic exchange publishers use");
        Located<String> queueSettings = fields.scalar(SpecKey.QUEUE_SETTINGS, "'policies' or 'arguments'");
        PolicyDraft defaults = fields.node(SpecKey.DEFAULTS, "")
                .map(node -> readPolicy(node, "defaults", SpecMapping.DEFAULTS_MAPPING))
                .orElseGet(() -> emptyPolicy(at(mapping)));
        Located<List<ServiceDraft>> services = fields.node(SpecKey.SERVICES, "a mapping of service names to services")
                .map(this::readServices)
                .orElse(null);
        return Optional.of(new SpecDraft(at(mapping), version, javaPackage, vhost, exchange, queueSettings,
                defaults, services));
    }

    private Located<List<ServiceDraft>> readServices(Located<Node> services) {
        List<ServiceDraft> drafts = new ArrayList<>();
        Node node = services.value();
        if (isNull(node)) {
            return located(drafts, services);
        }
        if (!(node instanceof MappingNode mapping)) {
            wrongType(services, "a mapping of service names to services");
            return null;
        }
        Fields fields = new Fields(mapping, services.path(), null);
        fields.each((name, value) -> {
            Located<String> located = new Located<>(name.value(), name.position(), value.path());
            PolicyDraft policy;
            Located<String> queue = null;
            Located<List<RouteDraft>> routes = null;
            if (isNull(value.value())) {
                problems.report(located, ProblemCode.MISSING_KEY,
                        "service '" + name.value() + "' has no settings; it needs at least 'routingKeys'");
                policy = emptyPolicy(name.position());
            } else if (value.value() instanceof MappingNode serviceNode) {
                Fields serviceFields = new Fields(serviceNode, value.path(), SpecMapping.SERVICE);
                queue = serviceFields.scalar(SpecKey.QUEUE, "the name of the queue the service consumes");
                routes = serviceFields.node(SpecKey.ROUTING_KEYS, "a list of routing keys")
                        .map(this::readRoutes)
                        .orElse(null);
                policy = readPolicy(serviceFields);
            } else {
                wrongType(value, "a mapping with the service's routingKeys and retry settings");
                return;
            }
            drafts.add(new ServiceDraft(located, queue, routes, policy));
        });
        return located(drafts, services);
    }

    private Located<List<RouteDraft>> readRoutes(Located<Node> routingKeys) {
        if (!(routingKeys.value() instanceof SequenceNode sequence)) {
            if (isNull(routingKeys.value())) {
                return located(List.of(), routingKeys);
            }
            wrongType(routingKeys, "a list of routing keys, such as [photo.deleted]");
            return null;
        }
        List<RouteDraft> routes = new ArrayList<>();
        List<Node> items = sequence.getValue();
        for (int index = 0; index < items.size(); index++) {
            Located<Node> item = new Located<>(items.get(index), at(items.get(index)), routingKeys.path() + "[" + index + "]");
            if (item.value() instanceof MappingNode mapping) {
                Fields fields = new Fields(mapping, item.path(), SpecMapping.ROUTE);
                Located<String> key = fields.scalar(SpecKey.KEY, "a routing key");
                Located<String> handler = fields.scalar(SpecKey.HANDLER, "a handler method name");
                Located<String> payload = fields.scalar(SpecKey.PAYLOAD, "a Java class name");
                if (key != null) {
                    routes.add(new RouteDraft(key, handler, payload));
                }
            } else {
                scalar(item, "a routing key, or a mapping with key, handler and payload")
                        .ifPresent(key -> routes.add(new RouteDraft(key, null, null)));
            }
        }
        return located(routes, routingKeys);
    }

    private PolicyDraft readPolicy(Located<Node> node, String kind, SpecMapping keys) {
        if (isNull(node.value())) {
            return emptyPolicy(node.position());
        }
        if (!(node.value() instanceof MappingNode mapping)) {
            wrongType(node, "a mapping of " + kind + " such as maxAttempts and delays");
            return emptyPolicy(node.position());
        }
        return readPolicy(new Fields(mapping, node.path(), keys));
    }

    private PolicyDraft readPolicy(Fields fields) {
        return new PolicyDraft(
                fields.position(),
                fields.scalar(SpecKey.MAX_ATTEMPTS, "a whole number of attempts, such as 4"),
                fields.scalarList(SpecKey.DELAYS, "a list of durations, such as [10s, 1m, 10m]"),
                fields.node(SpecKey.BACKOFF, "").map(this::readBackoff).orElse(null),
                fields.scalar(SpecKey.DELAY_BY, "'tier-queues' or 'broker'"),
                fields.scalar(SpecKey.PROTOCOL, "'amqp-0.9.1' or 'amqp-1.0'"),
                fields.scalar(SpecKey.QUEUE_TYPE, "'quorum' or 'classic'"),
                fields.scalarList(SpecKey.NON_RETRYABLE, "a list of exception class names"));
    }

    private Located<BackoffDraft> readBackoff(Located<Node> backoff) {
        if (!(backoff.value() instanceof MappingNode mapping)) {
            wrongType(backoff, "a mapping such as {initial: 10s, multiplier: 3, max: 30m}");
            return null;
        }
        Fields fields = new Fields(mapping, backoff.path(), SpecMapping.BACKOFF_MAPPING);
        return located(new BackoffDraft(
                fields.scalar(SpecKey.INITIAL, "the first delay, such as 10s"),
                fields.scalar(SpecKey.MULTIPLIER, "how much each delay grows, such as 2"),
                fields.scalar(SpecKey.MAX, "the longest delay, such as 30m")), backoff);
    }

    private Optional<Located<String>> scalar(Located<Node> node, String expected) {
        if (isNull(node.value())) {
            problems.report(node, ProblemCode.WRONG_TYPE, "there is no value; expected " + expected);
            return Optional.empty();
        }
        if (!(node.value() instanceof ScalarNode scalar)) {
            wrongType(node, expected);
            return Optional.empty();
        }
        if (hasLoneSurrogate(scalar.getValue())) {
            reportLoneSurrogate(node.position(), node.path());
            return Optional.empty();
        }
        return Optional.of(located(scalar.getValue(), node));
    }

    private Located<List<Located<String>>> scalarList(Located<Node> node, String expected) {
        if (!(node.value() instanceof SequenceNode sequence)) {
            wrongType(node, expected);
            return null;
        }
        List<Located<String>> values = new ArrayList<>();
        List<Node> items = sequence.getValue();
        for (int index = 0; index < items.size(); index++) {
            Node item = items.get(index);
            scalar(new Located<>(item, at(item), node.path() + "[" + index + "]"), "one word of " + expected)
                    .ifPresent(values::add);
        }
        return located(values, node);
    }

    private void wrongType(Located<Node> node, String expected) {
        problems.report(node, ProblemCode.WRONG_TYPE, "this is " + describe(node.value()) + "; expected " + expected);
    }

    private void reportEmpty() {
        problems.report(start(), "", ProblemCode.EMPTY_FILE,
                "the file holds no YAML document; a spec starts with 'version: 1'");
    }

    private static String describe(Node node) {
        if (node instanceof MappingNode) {
            return "a mapping";
        }
        if (node instanceof SequenceNode) {
            return "a list";
        }
        return isNull(node) ? "empty" : "the word '" + ((ScalarNode) node).getValue() + "'";
    }

    private static boolean isNull(Node node) {
        return node instanceof ScalarNode && node.getTag().equals(Tag.NULL);
    }

    private static PolicyDraft emptyPolicy(Position at) {
        return new PolicyDraft(at, null, null, null, null, null, null, null);
    }

    private static <T> Located<T> located(T value, Located<?> where) {
        return new Located<>(value, where.position(), where.path());
    }

    private Position start() {
        return new Position(file, 1, 1);
    }

    private Position at(Node node) {
        return at(node.getStartMark());
    }

    private Position at(Mark mark) {
        return mark == null ? start() : positionAt(mark.getIndex());
    }

    /**
     * The position of the character at this index, in code points. A position in a line's end of line, or past
     * the end of the file, is the end of its line.
     */
    private Position positionAt(int index) {
        int line = Arrays.binarySearch(lineStarts, index);
        if (line < 0) {
            line = -line - 2;
        }
        return new Position(file, line + 1, Math.min(index, lineEnds[line]) - lineStarts[line] + 1);
    }

    /** Finds where each line starts and ends, in code points: a line ends at LF, CR or CR LF. */
    private void indexLines(String text) {
        List<Integer> starts = new ArrayList<>(List.of(0));
        List<Integer> ends = new ArrayList<>();
        int index = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r') {
                ends.add(index);
                int length = c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n' ? 2 : 1;
                i += length - 1;
                index += length;
                starts.add(index);
            } else if (!Character.isHighSurrogate(c) || i + 1 >= text.length()
                    || !Character.isLowSurrogate(text.charAt(i + 1))) {
                index++;
            }
        }
        ends.add(index);
        lineStarts = starts.stream().mapToInt(Integer::intValue).toArray();
        lineEnds = ends.stream().mapToInt(Integer::intValue).toArray();
    }

    private void reportLoneSurrogate(Position position, String path) {
        problems.report(position, path, ProblemCode.BAD_CHARACTER, "this holds a lone UTF-16 surrogate, which is "
                + "not a character and cannot be written as UTF-8; check its \\u escapes");
    }

    private static boolean hasLoneSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    private static boolean startsWith(byte[] content, int... prefix) {
        if (content.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if ((content[i] & 0xFF) != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static String child(String path, String key) {
        boolean plain = !key.isEmpty() && key.codePoints().allMatch(c -> Character.isLetterOrDigit(c) || c == '-' || c == '_');
        if (!plain) {
            return path + "['" + key + "']";
        }
        return path.isEmpty() ? key : path + "." + key;
    }

    /** Where a key that is unknown in one mapping does belong, for hints. */
    private static String elsewhere(String key, SpecMapping here) {
        if (SpecMapping.ROOT.key(key).isPresent()) {
            return "; '" + key + "' is a top-level key";
        }
        if (SpecMapping.SERVICE.key(key).isPresent() && SpecMapping.DEFAULTS_MAPPING.key(key).isEmpty()) {
            return "; '" + key + "' belongs to a service";
        }
        if (SpecMapping.DEFAULTS_MAPPING.key(key).isPresent() && here == SpecMapping.ROOT) {
            return "; '" + key + "' belongs under 'defaults' or a service";
        }
        if (SpecMapping.ROUTE.key(key).isPresent()) {
            return "; '" + key + "' belongs to an entry of routingKeys";
        }
        if (SpecMapping.BACKOFF_MAPPING.key(key).isPresent()) {
            return "; '" + key + "' belongs under 'backoff'";
        }
        return "";
    }

    /**
     * The entries of one mapping, checked once: keys are words, each appears once, and each is known (when
     * the keys are fixed). Values are looked up by key.
     */
    private final class Fields {
        private final MappingNode mapping;
        private final String path;
        private final Map<String, Located<Node>> values = new LinkedHashMap<>();
        private final Map<String, Position> keyPositions = new LinkedHashMap<>();

        /**
         * @param known the mapping whose keys this is, or null if any word is a key (as service names are)
         */
        Fields(MappingNode mapping, String path, SpecMapping known) {
            this.mapping = mapping;
            this.path = path;
            for (NodeTuple entry : mapping.getValue()) {
                Node keyNode = entry.getKeyNode();
                if (!(keyNode instanceof ScalarNode scalarKey)) {
                    problems.report(at(keyNode), path, ProblemCode.WRONG_TYPE,
                            "a key here is " + describe(keyNode) + "; keys are plain words");
                    continue;
                }
                String key = scalarKey.getValue();
                Position keyPosition = at(keyNode);
                if (hasLoneSurrogate(key)) {
                    reportLoneSurrogate(keyPosition, path);
                    continue;
                }
                String childPath = child(path, key);
                if (keyPositions.containsKey(key)) {
                    Position first = keyPositions.get(key);
                    if (known == null) {
                        problems.report(keyPosition, childPath, ProblemCode.DUPLICATE_SERVICE, "service '" + key
                                + "' is declared twice; the first is at line " + first.line());
                    } else {
                        problems.report(keyPosition, childPath, ProblemCode.DUPLICATE_KEY, "'" + key
                                + "' is set twice in this mapping; the first is at line " + first.line());
                    }
                    continue;
                }
                if (known != null && known.key(key).isEmpty()) {
                    String hint = keyNode.getTag().equals(Tag.MERGE)
                            ? "; merge keys are not supported, use 'defaults' to share settings"
                            : Suggestions.didYouMean(key, known.names()) + elsewhere(key, known);
                    if (hint.isEmpty()) {
                        hint = "; expected one of " + String.join(", ", known.names());
                    }
                    problems.report(keyPosition, childPath, ProblemCode.UNKNOWN_KEY,
                            "'" + key + "' is not " + known.keyKind() + hint);
                    continue;
                }
                keyPositions.put(key, keyPosition);
                values.put(key, new Located<>(entry.getValueNode(), at(entry.getValueNode()), childPath));
            }
        }

        Position position() {
            return at(mapping);
        }

        /** The key's value, if the mapping holds it; reports it missing if it is required. */
        Optional<Located<Node>> node(SpecKey key, String expected) {
            Optional<Located<Node>> value = Optional.ofNullable(values.get(key.yamlName()));
            if (value.isEmpty() && key.required()) {
                problems.report(at(mapping), path, ProblemCode.MISSING_KEY,
                        "'" + key.yamlName() + "' is missing; expected " + expected);
            }
            return value;
        }

        Located<String> scalar(SpecKey key, String expected) {
            return node(key, expected).flatMap(value -> SpecReader.this.scalar(value, expected)).orElse(null);
        }

        Located<List<Located<String>>> scalarList(SpecKey key, String expected) {
            return node(key, expected).map(value -> SpecReader.this.scalarList(value, expected)).orElse(null);
        }

        /** Calls {@code action} with each key (located at the key) and its value (located at the value). */
        void each(EntryAction action) {
            values.forEach((key, value) -> action.accept(new Located<>(key, keyPositions.get(key), value.path()), value));
        }
    }

    @FunctionalInterface
    private interface EntryAction {
        void accept(Located<String> key, Located<Node> value);
    }

    /**
     * Hands the composer SnakeYAML's events, refusing each that carries an explicit tag: the tag decides nothing
     * here, since every value is read as text, so it can only mislead.
     */
    private final class TagRefusingParser implements Parser {
        private final Parser parser;

        TagRefusingParser(Parser parser) {
            this.parser = parser;
        }

        @Override
        public boolean checkEvent(Event.ID choice) {
            return parser.checkEvent(choice);
        }

        @Override
        public Event peekEvent() {
            return parser.peekEvent();
        }

        @Override
        public Event getEvent() {
            Event event = parser.getEvent();
            String tag = event instanceof ScalarEvent scalar ? scalar.getTag()
                    : event instanceof CollectionStartEvent collection ? collection.getTag() : null;
            if (tag != null) {
                String shown = tag.startsWith(Tag.PREFIX) ? "!!" + tag.substring(Tag.PREFIX.length()) : tag;
                problems.report(at(event.getStartMark()), "", ProblemCode.EXPLICIT_TAG, "the tag '" + shown
                        + "' is not allowed; a spec holds only plain words, lists and mappings, and reads every word "
                        + "as text");
            }
            return event;
        }
    }
}
