package io.github.retrytopology.operations.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A plan as JSON, for pipelines: the document that the "plan.json" section of docs/plan-and-apply.md describes, version
 * {@value #SCHEMA}. It holds no credentials: the broker is named by its URI without them.
 */
public final class PlanJson {

    /** The version of the document's layout; it changes only when a field changes meaning or goes. */
    public static final int SCHEMA = 1;

    private PlanJson() {
    }

    /** The plan as a JSON document, indented, ending with a line end. */
    public static String write(Plan plan) {
        return write(document(plan));
    }

    /**
     * The plan and the steps of a migration onto an adopted spec, as a JSON document: the plan's, with
     * {@code adoption}, the steps in order, each with its {@code action}, {@code object}, {@code detail},
     * {@code messages} (counted live, or null) and {@code state}.
     */
    public static String write(Plan plan, List<AdoptionStep> steps) {
        Map<String, Object> document = document(plan);
        List<Map<String, Object>> adoption = new ArrayList<>();
        for (AdoptionStep step : steps) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("action", step.action().id());
            json.put("object", step.object());
            json.put("detail", step.detail());
            json.put("messages", number(step.messages()));
            json.put("state", step.state().id());
            adoption.add(json);
        }
        document.put("adoption", adoption);
        return write(document);
    }

    private static String write(Map<String, Object> document) {
        try {
            return Values.JSON.writer().with(SerializationFeature.INDENT_OUTPUT).writeValueAsString(document) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a plan could not be written as JSON", e);
        }
    }

    private static Map<String, Object> document(Plan plan) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("schema", SCHEMA);
        document.put("vhost", plan.vhost());
        document.put("exchange", plan.exchange());
        document.put("broker", plan.broker().toString());
        document.put("inSync", plan.inSync());
        Map<String, Long> summary = new LinkedHashMap<>();
        plan.counts().forEach((action, count) -> summary.put(action.id(), count));
        document.put("summary", summary);
        document.put("warnings", plan.warnings());
        List<Map<String, Object>> entries = new ArrayList<>();
        for (PlanEntry entry : plan.entries()) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("action", entry.action().id());
            json.put("kind", entry.kind().id());
            json.put("service", entry.service().orElse(null));
            json.put("name", entry.name());
            entry.routingKey().ifPresent(key -> json.put("routingKey", key));
            json.put("reason", entry.reason());
            json.put("broker", entry.broker().isEmpty() ? null : entry.broker());
            json.put("spec", entry.spec().isEmpty() ? null : entry.spec());
            json.put("messages", number(entry.messages()));
            json.put("consumers", number(entry.consumers()));
            json.put("deadLettered", number(entry.deadLettered()));
            entries.add(json);
        }
        document.put("entries", entries);
        return document;
    }

    /** Writes the plan to a file, creating its directory; a reader never sees half a file. */
    public static void write(Plan plan, Path file) throws IOException {
        Path directory = file.toAbsolutePath().getParent();
        Files.createDirectories(directory);
        Path partial = Files.createTempFile(directory, file.getFileName().toString(), ".partial");
        try {
            Files.writeString(partial, write(plan), StandardCharsets.UTF_8);
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    private static Long number(OptionalLong value) {
        return value.isPresent() ? value.getAsLong() : null;
    }
}
