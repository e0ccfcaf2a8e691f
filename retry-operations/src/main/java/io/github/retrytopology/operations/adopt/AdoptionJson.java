package io.github.retrytopology.operations.adopt;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.retrytopology.model.decision.Durations;
import io.github.retrytopology.model.headers.Header;
import io.github.retrytopology.operations.adopt.AdoptionRecord.AttemptCount;
import io.github.retrytopology.operations.adopt.AdoptionRecord.Destination;
import io.github.retrytopology.operations.adopt.AdoptionRecord.Listed;
import io.github.retrytopology.operations.adopt.AdoptionRecord.OldBinding;
import io.github.retrytopology.operations.adopt.AdoptionRecord.OldExchange;
import io.github.retrytopology.operations.adopt.AdoptionRecord.OldQueue;
import io.github.retrytopology.operations.adopt.AdoptionRecord.Replaced;
import io.github.retrytopology.operations.adopt.AdoptionRecord.Role;
import io.github.retrytopology.operations.adopt.AdoptionRecord.ServiceRecord;
import io.github.retrytopology.operations.adopt.AdoptionRecord.SpecExchange;
import io.github.retrytopology.operations.adopt.AdoptionRecord.Tier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * An {@link AdoptionRecord} as JSON, the {@code retry.adoption.json} document that docs/adopting.md describes:
 * written indented with its keys in a fixed order, so that the same record is always the same text, and read back
 * whole. Durations are written as a spec writes them ({@code 30s}).
 */
public final class AdoptionJson {

    /** What the document says it is. */
    public static final String DOCUMENT = "retry-adoption";

    private static final ObjectMapper JSON = Json.MAPPER;

    private AdoptionJson() {
    }

    /** The record as a JSON document, ending with a line end. */
    public static String write(AdoptionRecord record) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("document", DOCUMENT);
        document.put("schema", record.schema());
        document.put("vhost", record.vhost());
        document.put("source", record.source());
        document.put("brokerVersion", record.brokerVersion().orElse(null));
        document.put("spec", record.spec());
        document.put("clean", record.clean());
        SpecExchange exchange = record.exchange();
        Map<String, Object> specExchange = new LinkedHashMap<>();
        specExchange.put("name", exchange.name());
        specExchange.put("exists", exchange.exists());
        specExchange.put("publishers", exchange.publishers());
        specExchange.put("bridge", exchange.bridge().stream().map(AdoptionJson::binding).toList());
        document.put("exchange", specExchange);
        document.put("services", record.services().stream().map(AdoptionJson::service).toList());
        document.put("queues", record.queues().stream().map(AdoptionJson::queue).toList());
        Replaced replaced = record.replaced();
        Map<String, Object> old = new LinkedHashMap<>();
        old.put("queues", replaced.queues());
        old.put("exchanges", replaced.exchanges().stream().map(oldExchange -> ordered("name", oldExchange.name(),
                "type", oldExchange.type(), "role", oldExchange.role())).toList());
        old.put("bindings", replaced.bindings().stream().map(AdoptionJson::binding).toList());
        old.put("policies", replaced.policies());
        document.put("replaced", old);
        document.put("unmapped", record.unmapped().stream().map(AdoptionJson::listed).toList());
        document.put("problems", record.problems().stream().map(AdoptionJson::listed).toList());
        try {
            return JSON.writer().with(SerializationFeature.INDENT_OUTPUT).writeValueAsString(document) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an adoption record could not be written as JSON", e);
        }
    }

    /**
     * Reads a record back.
     *
     * @throws IOException if the file cannot be read, is not JSON, is not an adoption record, or is of a later
     *     schema than this version reads
     */
    public static AdoptionRecord read(Path file) throws IOException {
        return read(Files.readString(file), file.toString());
    }

    /**
     * Reads a record back from its text.
     *
     * @param file the file's name, as errors name it
     * @throws IOException if the text is not JSON, not an adoption record, or of a later schema
     */
    public static AdoptionRecord read(String json, String file) throws IOException {
        JsonNode document;
        try {
            document = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IOException(file + ": malformed JSON: " + e.getOriginalMessage(), e);
        }
        if (document == null || !DOCUMENT.equals(document.path("document").asText())) {
            throw new IOException(file + ": not an adoption record: it has no \"document\": \"" + DOCUMENT + "\"");
        }
        int schema = document.path("schema").asInt(-1);
        if (schema != AdoptionRecord.SCHEMA) {
            throw new IOException(file + ": an adoption record of schema " + schema + "; this version reads schema "
                    + AdoptionRecord.SCHEMA);
        }
        try {
            JsonNode exchange = document.path("exchange");
            JsonNode replaced = document.path("replaced");
            return new AdoptionRecord(schema, text(document, "vhost"), text(document, "source"),
                    Optional.ofNullable(document.path("brokerVersion").textValue()), text(document, "spec"),
                    new SpecExchange(text(exchange, "name"), exchange.path("exists").asBoolean(),
                            strings(exchange.path("publishers")), list(exchange.path("bridge"), AdoptionJson::binding)),
                    list(document.path("services"), AdoptionJson::service),
                    list(document.path("queues"), AdoptionJson::queue),
                    new Replaced(strings(replaced.path("queues")),
                            list(replaced.path("exchanges"), node -> new OldExchange(text(node, "name"),
                                    text(node, "type"), text(node, "role"))),
                            list(replaced.path("bindings"), AdoptionJson::binding), strings(replaced.path("policies"))),
                    list(document.path("unmapped"), AdoptionJson::listed),
                    list(document.path("problems"), AdoptionJson::listed));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IOException(file + ": not a whole adoption record: " + e.getMessage(), e);
        }
    }

    private static Map<String, Object> service(ServiceRecord service) {
        return ordered("service", service.service(), "queue", service.queue(),
                "tiers", service.tiers().stream().map(AdoptionJson::tier).toList(),
                "parkingLot", service.parkingLot(), "maxAttempts", service.maxAttempts());
    }

    private static ServiceRecord service(JsonNode node) {
        return new ServiceRecord(text(node, "service"), text(node, "queue"), list(node.path("tiers"), AdoptionJson::tier),
                text(node, "parkingLot"), node.path("maxAttempts").asInt());
    }

    private static Map<String, Object> tier(Tier tier) {
        return ordered("tier", tier.tier(), "queue", tier.queue(), "delay", Durations.write(tier.delay()));
    }

    private static Tier tier(JsonNode node) {
        return new Tier(node.path("tier").asInt(), text(node, "queue"), Durations.parse(text(node, "delay")));
    }

    private static Map<String, Object> queue(OldQueue queue) {
        return ordered("queue", queue.queue(), "role", queue.role().id(), "service", queue.service(),
                "delay", queue.delay().map(Durations::write).orElse(null),
                "destination", destination(queue.destination()), "attempts", attempts(queue.attempts()),
                "arguments", queue.arguments(), "conflicting", queue.conflicting());
    }

    private static OldQueue queue(JsonNode node) {
        JsonNode delay = node.path("delay");
        return new OldQueue(text(node, "queue"), Role.of(text(node, "role")), text(node, "service"),
                delay.isTextual() ? Optional.of(Durations.parse(delay.asText())) : Optional.empty(),
                destination(node.path("destination")), attempts(node.path("attempts")),
                Json.map(node.path("arguments")), strings(node.path("conflicting")));
    }

    private static Map<String, Object> destination(Destination destination) {
        if (destination instanceof Destination.ServiceQueue queue) {
            return ordered("to", "service-queue", "queue", queue.queue());
        }
        if (destination instanceof Destination.TierQueue tier) {
            return ordered("to", "tier", "tier", tier.tier(), "queue", tier.queue());
        }
        if (destination instanceof Destination.TierByDelay byDelay) {
            return ordered("to", "tier-by-delay", "tiers", byDelay.tiers().stream().map(AdoptionJson::tier).toList());
        }
        return ordered("to", "parking-lot", "queue", ((Destination.ParkingLot) destination).queue());
    }

    private static Destination destination(JsonNode node) {
        String to = text(node, "to");
        return switch (to) {
            case "service-queue" -> new Destination.ServiceQueue(text(node, "queue"));
            case "tier" -> new Destination.TierQueue(node.path("tier").asInt(), text(node, "queue"));
            case "tier-by-delay" -> new Destination.TierByDelay(list(node.path("tiers"), AdoptionJson::tier));
            case "parking-lot" -> new Destination.ParkingLot(text(node, "queue"));
            default -> throw new IllegalArgumentException("'" + to + "' is not a destination");
        };
    }

    private static Map<String, Object> attempts(AttemptCount count) {
        if (count instanceof AttemptCount.XDeath xDeath) {
            return ordered("from", Header.X_DEATH.name(), "queues", xDeath.queues(), "reason", xDeath.reason(), "plus", xDeath.plus());
        }
        if (count instanceof AttemptCount.Header header) {
            return ordered("from", "header", "name", header.name());
        }
        return ordered("from", "unknown", "reason", ((AttemptCount.Unknown) count).reason());
    }

    private static AttemptCount attempts(JsonNode node) {
        String from = text(node, "from");
        if (from.equals(Header.X_DEATH.name())) {
            return new AttemptCount.XDeath(strings(node.path("queues")), text(node, "reason"), node.path("plus").asInt());
        }
        return switch (from) {
            case "header" -> new AttemptCount.Header(text(node, "name"));
            case "unknown" -> new AttemptCount.Unknown(text(node, "reason"));
            default -> throw new IllegalArgumentException("'" + from + "' is not a way of counting attempts");
        };
    }

    private static Map<String, Object> binding(OldBinding binding) {
        return ordered("source", binding.source(), "destination", binding.destination(),
                "destinationType", binding.destinationType(), "routingKey", binding.routingKey(),
                "arguments", binding.arguments());
    }

    private static OldBinding binding(JsonNode node) {
        return new OldBinding(text(node, "source"), text(node, "destination"), text(node, "destinationType"),
                text(node, "routingKey"), Json.map(node.path("arguments")));
    }

    private static Map<String, Object> listed(Listed listed) {
        return ordered("kind", listed.kind(), "name", listed.name(), "reason", listed.reason());
    }

    private static Listed listed(JsonNode node) {
        return new Listed(text(node, "kind"), text(node, "name"), text(node, "reason"));
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        if (!value.isTextual()) {
            throw new IllegalArgumentException("'" + field + "' is missing where " + node + " needs it");
        }
        return value.asText();
    }

    private static List<String> strings(JsonNode array) {
        List<String> strings = new ArrayList<>();
        array.forEach(item -> strings.add(item.asText()));
        return strings;
    }

    private static <T> List<T> list(JsonNode array, Function<JsonNode, T> read) {
        List<T> items = new ArrayList<>();
        array.forEach(item -> items.add(read.apply(item)));
        return items;
    }

    private static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
