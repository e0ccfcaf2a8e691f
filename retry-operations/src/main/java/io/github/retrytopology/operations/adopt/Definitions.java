package io.github.retrytopology.operations.adopt;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.retrytopology.model.QueueType;
import io.github.retrytopology.model.topology.QueueArguments;
import io.github.retrytopology.operations.broker.ManagementApi;
import io.github.retrytopology.operations.broker.ManagementApiException;
import io.github.retrytopology.operations.broker.QueueStatistics;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * What one virtual host holds, as RabbitMQ's definitions describe it: its queues, exchanges, bindings, policies,
 * operator policies and other parameters (shovels, federation upstreams). Read from a file that
 * {@code GET /api/definitions} (every virtual host) or {@code GET /api/definitions/VHOST} (one) exported, or from
 * a live broker's management API.
 *
 * <p>Definitions hold no messages and no consumers. Read live, they come with the number of consumers of each
 * queue, as the broker's statistics last counted them, which adopt takes as a hint of which queues are consumed.
 */
public final class Definitions {

    /** The virtual host a per-virtual-host file is taken to describe when nobody names one. */
    public static final String DEFAULT_VHOST = "/";

    /** The sections whose objects name their virtual host even in an export of one. */
    private static final Set<String> NAMED_IN_ONE = Set.of("parameters", "policies");

    private static final ObjectMapper JSON = Json.MAPPER;
    private static final ObjectNode EMPTY = JsonNodeFactory.instance.objectNode();
    private static final Set<String> SECTIONS = Set.of("queues", "exchanges", "bindings", "policies", "parameters");
    private static final String OPERATOR_POLICY = "operator_policy";

    private final String vhost;
    private final boolean vhostNamed;
    private final String source;
    private final Optional<String> brokerVersion;
    private final List<Queue> queues;
    private final List<Exchange> exchanges;
    private final List<Binding> bindings;
    private final List<Policy> policies;
    private final List<Parameter> parameters;
    private final Optional<Map<String, Long>> consumers;

    private Definitions(String vhost, boolean vhostNamed, String source, Optional<String> brokerVersion,
            List<Queue> queues, List<Exchange> exchanges, List<Binding> bindings, List<Policy> policies,
            List<Parameter> parameters, Optional<Map<String, Long>> consumers) {
        this.vhost = vhost;
        this.vhostNamed = vhostNamed;
        this.source = source;
        this.brokerVersion = brokerVersion;
        this.queues = List.copyOf(queues);
        this.exchanges = List.copyOf(exchanges);
        this.bindings = List.copyOf(bindings);
        this.policies = List.copyOf(policies);
        this.parameters = List.copyOf(parameters);
        this.consumers = consumers.map(Map::copyOf);
    }

    /**
     * Reads an exported definitions file.
     *
     * @param vhost the virtual host to adopt: required when the file holds several; for a file of one virtual
     *     host's definitions, which do not name it, {@value #DEFAULT_VHOST} when not given
     * @throws DefinitionsException if the file is not JSON, or not definitions, with the line and column
     * @throws IOException if the file cannot be read
     */
    public static Definitions read(Path file, Optional<String> vhost) throws IOException {
        return parse(Files.readAllBytes(file), file.toString(), vhost);
    }

    /**
     * Reads exported definitions.
     *
     * @param json the file's bytes
     * @param file the file's name, as errors name it
     * @param vhost as {@link #read(Path, Optional)} takes it
     * @throws DefinitionsException if the bytes are not JSON, or not definitions, with the line and column
     */
    public static Definitions parse(byte[] json, String file, Optional<String> vhost) throws DefinitionsException {
        return parse(json, file, "definitions file " + file, vhost, Optional.empty());
    }

    /**
     * Reads a virtual host of a live broker: its definitions ({@code GET /api/definitions/VHOST}), read as a file of
     * them is, and its queues' consumers ({@code GET /api/queues/VHOST}), both requests at once.
     *
     * @throws IOException if the API cannot be reached, refuses the user, or the virtual host does not exist
     * @throws DefinitionsException if the broker's export is not definitions, with the line and column
     */
    public static Definitions fetch(ManagementApi api, String vhost) throws IOException {
        ManagementApi.ExportReading read;
        try {
            read = api.readExport(vhost, List.of("name", "consumers"));
        } catch (ManagementApiException e) {
            if (e.isVhostMissing()) {
                throw new IOException("the virtual host '" + vhost + "' does not exist on " + api.base(), e);
            }
            throw e;
        }
        Map<String, Long> consumers = new HashMap<>();
        for (QueueStatistics queue : read.statistics()) {
            queue.consumersCount().ifPresent(count -> consumers.put(queue.name(), count));
        }
        URI export = api.base().resolve("api/definitions/" + ManagementApi.encode(vhost));
        return parse(read.definitions(), export.toString(), "management API " + api.base() + ", virtual host '" + vhost
                + "'", Optional.of(vhost), Optional.of(consumers));
    }

    /** A queue's type from its arguments, as RabbitMQ before 4 exports it: a queue declared without one is classic. */
    private static String typeArgument(ObjectNode arguments) {
        return arguments.path(QueueArguments.QUEUE_TYPE).isTextual()
                ? arguments.path(QueueArguments.QUEUE_TYPE).asText() : QueueType.CLASSIC.id();
    }

    /** A queue's arguments without its type, which is the queue's own field; RabbitMQ 4 writes it into every queue's. */
    private static ObjectNode withoutType(ObjectNode arguments) {
        if (!arguments.has(QueueArguments.QUEUE_TYPE)) {
            return arguments;
        }
        ObjectNode settings = arguments.deepCopy();
        settings.remove(QueueArguments.QUEUE_TYPE);
        return settings;
    }

    private static Definitions parse(byte[] json, String file, String source, Optional<String> vhost,
            Optional<Map<String, Long>> consumers) throws DefinitionsException {
        Document document = Document.read(json, file);
        boolean perVhost = !document.namesVhosts();
        String chosen;
        boolean vhostNamed = true;
        if (perVhost) {
            // A per-virtual-host export names no virtual host but in its parameters and policies, if it has any.
            Set<String> named = document.parameterVhosts();
            chosen = vhost.orElse(named.size() == 1 ? named.iterator().next() : DEFAULT_VHOST);
            vhostNamed = vhost.isPresent() || named.size() == 1;
        } else {
            Set<String> named = document.vhosts();
            if (vhost.isPresent() && !named.contains(vhost.get())) {
                throw new DefinitionsException(file, "holds no virtual host '" + vhost.get() + "'; it holds "
                        + list(named));
            }
            if (vhost.isEmpty() && named.size() > 1) {
                throw new DefinitionsException(file, "holds the virtual hosts " + list(named)
                        + "; name the one to adopt with --vhost");
            }
            chosen = vhost.orElse(named.isEmpty() ? DEFAULT_VHOST : named.iterator().next());
        }
        List<Queue> queues = new ArrayList<>();
        List<Exchange> exchanges = new ArrayList<>();
        List<Binding> bindings = new ArrayList<>();
        List<Policy> policies = new ArrayList<>();
        List<Parameter> parameters = new ArrayList<>();
        for (Element element : document.elements()) {
            if (!perVhost && !element.namesVhost()) {
                throw element.error("names no virtual host, while the file's other objects do");
            }
            if (!perVhost && !element.text("vhost").equals(chosen)) {
                continue;
            }
            switch (element.section()) {
                case "queues" -> queues.add(element.queue());
                case "exchanges" -> exchanges.add(element.exchange());
                case "bindings" -> bindings.add(element.binding());
                case "policies" -> policies.add(element.policy());
                default -> {
                    if (OPERATOR_POLICY.equals(element.text("component"))) {
                        policies.add(element.operatorPolicy());
                    } else {
                        parameters.add(element.parameter());
                    }
                }
            }
        }
        return new Definitions(chosen, vhostNamed, source, document.brokerVersion(), queues, exchanges, bindings,
                policies, parameters, consumers);
    }

    private static String list(Set<String> vhosts) {
        return vhosts.isEmpty() ? "none" : "'" + String.join("', '", vhosts) + "'";
    }

    /** The virtual host these definitions are of. */
    public String vhost() {
        return vhost;
    }

    /**
     * Whether the virtual host was named, by the file or by the caller; a file of one virtual host's definitions
     * does not name it, and {@value #DEFAULT_VHOST} is then taken.
     */
    public boolean vhostNamed() {
        return vhostNamed;
    }

    /** Where they were read: the file, or the management API and virtual host. */
    public String source() {
        return source;
    }

    /** The RabbitMQ version that exported them, if they say. */
    public Optional<String> brokerVersion() {
        return brokerVersion;
    }

    /** How many queues the virtual host has. */
    public int queueCount() {
        return queues.size();
    }

    List<Queue> queues() {
        return queues;
    }

    List<Exchange> exchanges() {
        return exchanges;
    }

    List<Binding> bindings() {
        return bindings;
    }

    /** The policies and operator policies. */
    List<Policy> policies() {
        return policies;
    }

    /** The parameters other than operator policies: shovels, federation upstreams, limits. */
    List<Parameter> parameters() {
        return parameters;
    }

    /** The same definitions, with the consumers a broker counted on each queue. */
    Definitions withConsumers(Map<String, Long> counted) {
        return new Definitions(vhost, vhostNamed, source, brokerVersion, queues, exchanges, bindings, policies,
                parameters, Optional.of(counted));
    }

    /** The consumers of each queue, as the broker last counted them; empty when read from a file. */
    Optional<Map<String, Long>> consumers() {
        return consumers;
    }

    /**
     * A queue.
     *
     * @param type {@code classic}, {@code quorum} or {@code stream}: RabbitMQ 4 exports it; before, the argument
     *     {@code x-queue-type} says it, and a queue declared without one is classic
     */
    record Queue(String name, boolean durable, boolean autoDelete, ObjectNode arguments, String type) {
        Queue {
            requireNonNull(name, "name");
            requireNonNull(arguments, "arguments");
            requireNonNull(type, "type");
        }
    }

    /** An exchange; the default exchange and the {@code amq.} ones are never exported. */
    record Exchange(String name, String type, boolean durable, boolean autoDelete, boolean internal,
            ObjectNode arguments) {
        Exchange {
            requireNonNull(name, "name");
            requireNonNull(type, "type");
            requireNonNull(arguments, "arguments");
        }
    }

    /** A binding; {@code destinationType} is {@code queue} or {@code exchange}. */
    record Binding(String source, String destination, String destinationType, String routingKey,
            ObjectNode arguments) {
        Binding {
            requireNonNull(source, "source");
            requireNonNull(destination, "destination");
            requireNonNull(destinationType, "destinationType");
            requireNonNull(routingKey, "routingKey");
            requireNonNull(arguments, "arguments");
        }

        boolean toQueue() {
            return "queue".equals(destinationType);
        }
    }

    /** A policy, or an operator policy. */
    record Policy(String name, String pattern, String applyTo, int priority, ObjectNode definition, boolean operator) {
        Policy {
            requireNonNull(name, "name");
            requireNonNull(pattern, "pattern");
            requireNonNull(applyTo, "applyTo");
            requireNonNull(definition, "definition");
        }

        String describe() {
            return (operator ? "operator policy '" : "policy '") + name + "'";
        }
    }

    /** A parameter of a component, such as a {@code shovel} or a {@code federation-upstream}. */
    record Parameter(String component, String name, JsonNode value) {
        Parameter {
            requireNonNull(component, "component");
            requireNonNull(name, "name");
            requireNonNull(value, "value");
        }
    }

    /** The document's top-level values, and each element of its sections where it starts. */
    private record Document(Map<String, JsonNode> top, List<Element> elements) {

        static Document read(byte[] json, String file) throws DefinitionsException {
            Map<String, JsonNode> top = new LinkedHashMap<>();
            List<Element> elements = new ArrayList<>();
            try (JsonParser parser = JSON.createParser(json)) {
                JsonToken first = parser.nextToken();
                if (first == null) {
                    throw new DefinitionsException(file, "holds no JSON; expected the definitions that "
                            + "GET /api/definitions exports");
                }
                if (first != JsonToken.START_OBJECT) {
                    throw at(file, parser.currentTokenLocation(), "expected a JSON object of definitions, as "
                            + "GET /api/definitions exports, found " + describe(first));
                }
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String field = parser.currentName();
                    JsonToken value = parser.nextToken();
                    if (!SECTIONS.contains(field)) {
                        top.put(field, parser.readValueAsTree());
                        continue;
                    }
                    if (value != JsonToken.START_ARRAY) {
                        throw at(file, parser.currentTokenLocation(), "'" + field + "' is " + describe(value)
                                + "; expected a list");
                    }
                    int index = 0;
                    while (parser.nextToken() != JsonToken.END_ARRAY) {
                        JsonLocation at = parser.currentTokenLocation();
                        JsonNode item = parser.readValueAsTree();
                        Element element = new Element(file, field, index++, at.getLineNr(), at.getColumnNr(), item);
                        if (!item.isObject()) {
                            throw element.error("is " + describe(item) + "; expected an object");
                        }
                        elements.add(element);
                    }
                }
                if (parser.nextToken() != null) {
                    throw at(file, parser.currentTokenLocation(), "has more after the definitions' closing '}'");
                }
            } catch (JsonProcessingException e) {
                JsonLocation at = e.getLocation();
                String message = "malformed JSON: " + e.getOriginalMessage();
                throw at == null ? new DefinitionsException(file, message) : at(file, at, message);
            } catch (DefinitionsException e) {
                throw e;
            } catch (IOException e) {
                throw new DefinitionsException(file, "cannot be read: " + e.getMessage());
            }
            JsonNode vhosts = top.get("vhosts");
            if (vhosts != null && !vhosts.isArray()) {
                throw new DefinitionsException(file, "'vhosts' is " + describe(vhosts) + "; expected a list");
            }
            return new Document(top, elements);
        }

        /**
         * Whether the objects name their virtual host, as the export of every virtual host has them do; that of one
         * virtual host names it in its parameters only.
         */
        /**
         * Whether it is an export of every virtual host: one of one virtual host names none on its queues, exchanges
         * and bindings, but does on its parameters and (RabbitMQ 3.10's) on its policies.
         */
        boolean namesVhosts() {
            return top.containsKey("vhosts") || elements.stream()
                    .anyMatch(element -> !NAMED_IN_ONE.contains(element.section()) && element.namesVhost());
        }

        /** The virtual hosts that an export of one names, on its parameters and policies. */
        Set<String> parameterVhosts() {
            Set<String> names = new TreeSet<>();
            elements.stream().filter(element -> NAMED_IN_ONE.contains(element.section()) && element.namesVhost())
                    .forEach(element -> names.add(element.text("vhost")));
            return names;
        }

        /** The virtual hosts the document names, in its list of them or in its objects. */
        Set<String> vhosts() {
            Set<String> names = new TreeSet<>();
            top.getOrDefault("vhosts", JsonNodeFactory.instance.arrayNode())
                    .forEach(vhost -> names.add(vhost.path("name").asText()));
            elements.stream().filter(Element::namesVhost).forEach(element -> names.add(element.text("vhost")));
            return names;
        }

        Optional<String> brokerVersion() {
            for (String field : List.of("rabbitmq_version", "rabbit_version")) {
                JsonNode version = top.get(field);
                if (version != null && version.isTextual() && !version.asText().isBlank()) {
                    return Optional.of(version.asText());
                }
            }
            return Optional.empty();
        }

        private static DefinitionsException at(String file, JsonLocation at, String message) {
            return new DefinitionsException(file, at.getLineNr(), at.getColumnNr(), message);
        }
    }

    /** One object of a section, where it starts in the file. */
    private record Element(String file, String section, int index, int line, int column, JsonNode node) {

        boolean namesVhost() {
            return node.path("vhost").isTextual();
        }

        Queue queue() throws DefinitionsException {
            ObjectNode arguments = object("arguments");
            String type = node.path("type").isTextual() ? node.path("type").asText() : typeArgument(arguments);
            return new Queue(required("name"), flag("durable", true), flag("auto_delete", false), withoutType(arguments),
                    type);
        }

        Exchange exchange() throws DefinitionsException {
            return new Exchange(required("name"), required("type"), flag("durable", true), flag("auto_delete", false),
                    flag("internal", false), object("arguments"));
        }

        Binding binding() throws DefinitionsException {
            String destinationType = required("destination_type");
            if (!destinationType.equals("queue") && !destinationType.equals("exchange")) {
                throw error("has destination_type '" + destinationType + "'; expected queue or exchange");
            }
            return new Binding(required("source"), required("destination"), destinationType, required("routing_key"),
                    object("arguments"));
        }

        Policy policy() throws DefinitionsException {
            return policy(node, required("name"), false);
        }

        Policy operatorPolicy() throws DefinitionsException {
            JsonNode value = node.path("value");
            if (!value.isObject()) {
                throw error("is an operator policy whose 'value' is " + describe(value) + "; expected an object");
            }
            return policy(value, required("name"), true);
        }

        private Policy policy(JsonNode policy, String name, boolean operator) throws DefinitionsException {
            JsonNode pattern = policy.path("pattern");
            JsonNode definition = policy.path("definition");
            JsonNode priority = policy.path("priority");
            if (!pattern.isTextual()) {
                throw error("is a policy whose 'pattern' is " + describe(pattern) + "; expected a regular expression");
            }
            if (!definition.isObject()) {
                throw error("is a policy whose 'definition' is " + describe(definition) + "; expected an object");
            }
            if (!priority.isMissingNode() && !priority.isIntegralNumber()) {
                throw error("is a policy whose 'priority' is " + describe(priority) + "; expected a whole number");
            }
            return new Policy(name, pattern.asText(), policy.path("apply-to").asText("all"), priority.asInt(0),
                    (ObjectNode) definition, operator);
        }

        Parameter parameter() throws DefinitionsException {
            return new Parameter(required("component"), required("name"), node.path("value"));
        }

        @Nullable String text(String field) {
            JsonNode value = node.path(field);
            return value.isTextual() ? value.asText() : null;
        }

        private String required(String field) throws DefinitionsException {
            String value = text(field);
            if (value == null) {
                throw error("has " + (node.has(field) ? "'" + field + "' " + describe(node.path(field))
                        : "no '" + field + "'") + "; expected a string");
            }
            return value;
        }

        private boolean flag(String field, boolean absent) throws DefinitionsException {
            JsonNode value = node.path(field);
            if (value.isMissingNode() || value.isNull()) {
                return absent;
            }
            if (!value.isBoolean()) {
                throw error("has '" + field + "' " + describe(value) + "; expected true or false");
            }
            return value.asBoolean();
        }

        private ObjectNode object(String field) throws DefinitionsException {
            JsonNode value = node.path(field);
            if (value.isMissingNode() || value.isNull()) {
                return EMPTY;
            }
            if (!value.isObject()) {
                throw error("has '" + field + "' " + describe(value) + "; expected an object");
            }
            return (ObjectNode) value;
        }

        DefinitionsException error(String message) {
            String name = node.path("name").isTextual() ? " ('" + node.path("name").asText() + "')" : "";
            return new DefinitionsException(file, line, column, section + "[" + index + "]" + name + " " + message);
        }
    }

    private static String describe(JsonToken token) {
        return switch (token) {
            case START_ARRAY -> "a list";
            case START_OBJECT -> "an object";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NULL -> "null";
            default -> token.asString() == null ? token.name() : "'" + token.asString() + "'";
        };
    }

    private static String describe(JsonNode node) {
        if (node.isMissingNode()) {
            return "missing";
        }
        return switch (node.getNodeType()) {
            case ARRAY -> "a list";
            case OBJECT -> "an object";
            case STRING -> "the string \"" + node.asText() + "\"";
            case NUMBER -> "the number " + node;
            case BOOLEAN -> node.toString();
            case NULL -> "null";
            default -> node.toString();
        };
    }
}
