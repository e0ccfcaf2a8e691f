package io.github.retrytopology.operations.plan;

import io.github.retrytopology.operations.plan.PlanEntry.Action;
import io.github.retrytopology.operations.plan.PlanEntry.Kind;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A plan as a person reads it on a console: a summary, then one group per service (the exchange first), each
 * listing what is not in sync, one line per object, and counting what is.
 */
public final class PlanTable {

    private static final int NAME_WIDTH = 40;

    private PlanTable() {
    }

    /** The lines of the table, without line ends. */
    public static List<String> lines(Plan plan) {
        List<String> lines = new ArrayList<>();
        lines.add("Plan of vhost '" + plan.vhost() + "' at " + plan.broker() + " for exchange '" + plan.exchange() + "': "
                + summary(plan));
        Map<String, List<PlanEntry>> groups = new LinkedHashMap<>();
        for (PlanEntry entry : plan.entries()) {
            groups.computeIfAbsent(entry.service().orElse("(exchange)"), group -> new ArrayList<>()).add(entry);
        }
        groups.forEach((group, entries) -> {
            lines.add("");
            List<PlanEntry> drift = entries.stream().filter(entry -> !entry.inSync()).toList();
            int width = Math.min(NAME_WIDTH, drift.stream().mapToInt(entry -> display(entry).length()).max().orElse(0));
            lines.add(group + (drift.isEmpty() ? ": in sync" : ""));
            for (PlanEntry entry : drift) {
                lines.add(String.format("  %-9s %-8s %-" + width + "s  %s%s", entry.action().label(), entry.kind().id(),
                        display(entry), entry.reason(), counts(entry)));
            }
            String inSync = inSync(entries);
            if (!inSync.isEmpty()) {
                lines.add("  in sync: " + inSync);
            }
        });
        if (!plan.warnings().isEmpty()) {
            lines.add("");
            lines.add("Warnings:");
            plan.warnings().forEach(warning -> lines.add("  - " + warning));
        }
        return lines;
    }

    /** {@code 1 to create, 2 to update, ..., 20 in sync}, or {@code in sync (20 objects)}. */
    public static String summary(Plan plan) {
        Map<Action, Long> counts = plan.counts();
        if (plan.inSync()) {
            return "in sync (" + counts.get(Action.IN_SYNC) + " objects)";
        }
        List<String> parts = new ArrayList<>();
        add(parts, counts.get(Action.CREATE), "to create", "to create");
        add(parts, counts.get(Action.UPDATE), "to update", "to update");
        add(parts, counts.get(Action.RECREATE), "to recreate", "to recreate");
        add(parts, counts.get(Action.ORPHAN), "orphan", "orphans");
        add(parts, counts.get(Action.CONFLICT), "conflict", "conflicts");
        add(parts, counts.get(Action.IN_SYNC), "in sync", "in sync");
        return String.join(", ", parts);
    }

    private static void add(List<String> parts, long count, String one, String many) {
        if (count > 0) {
            parts.add(count + " " + (count == 1 ? one : many));
        }
    }

    private static String display(PlanEntry entry) {
        return entry.kind() == Kind.BINDING ? entry.routingKey().orElseThrow() + " -> " + entry.name() : entry.name();
    }

    private static String counts(PlanEntry entry) {
        if (entry.kind() != Kind.QUEUE || entry.action() == Action.RECREATE || entry.action() == Action.ORPHAN
                || entry.messages().isEmpty()) {
            return "";
        }
        return " [" + entry.messages().getAsLong() + " messages, " + entry.consumers().orElse(0) + " consumers]";
    }

    private static String inSync(List<PlanEntry> entries) {
        Map<Kind, Long> counts = new EnumMap<>(Kind.class);
        entries.stream().filter(PlanEntry::inSync).forEach(entry -> counts.merge(entry.kind(), 1L, Long::sum));
        return counts.entrySet().stream()
                .map(count -> count.getValue() + " " + plural(count.getKey(), count.getValue()))
                .collect(Collectors.joining(", "));
    }

    private static String plural(Kind kind, long count) {
        if (count == 1) {
            return kind.id();
        }
        return switch (kind) {
            case EXCHANGE -> "exchanges";
            case QUEUE -> "queues";
            case POLICY -> "policies";
            case BINDING -> "bindings";
        };
    }

    /** The steps of a migration onto an adopted spec, after a heading that names the record. */
    public static List<String> adoption(String record, List<AdoptionStep> steps) {
        List<String> lines = new ArrayList<>();
        lines.add("adoption, as " + record + " says:");
        steps.forEach(step -> lines.add(step.line()));
        return lines;
    }
}
