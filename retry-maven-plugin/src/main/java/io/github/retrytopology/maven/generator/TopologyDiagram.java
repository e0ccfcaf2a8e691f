package io.github.retrytopology.maven.generator;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.Tier;
import io.github.retrytopology.model.decision.Durations;
import io.github.retrytopology.model.internal.PolicyText;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The variables of {@code topology.md.ftl}: a picture of the topology that a person can read, as a Mermaid
 * flowchart in Markdown, with a table of the services beside it. Every label is escaped here; the template
 * only places them.
 */
final class TopologyDiagram {

    static final String TEMPLATE = "topology.md.ftl";

    private TopologyDiagram() {
    }

    /**
     * @param title the exchange, as Markdown code
     * @param source the spec file's name
     * @param exchangeLabel the exchange node's label
     * @param services one per service, in the spec's order
     */
    public record Variables(String title, String source, String exchangeLabel, List<ServiceNode> services) {
    }

    /**
     * @param id the node's id
     * @param label the queue node's label
     * @param bindingLabel the label of the edge from the exchange: its routing keys
     * @param tiers its wait queues
     * @param brokerDelayLabel the label of the edge from the service back to itself when the broker delays its
     *     retries; empty otherwise
     * @param parkingLotLabel the parking lot node's label
     * @param parkLabel the label of the edge to the parking lot
     * @param row the service in the table, as Markdown cells
     */
    public record ServiceNode(String id, String label, String bindingLabel, List<TierNode> tiers,
            String brokerDelayLabel, String parkingLotLabel, String parkLabel, List<String> row) {
    }

    /**
     * @param id the node's id
     * @param label the node's label
     * @param retryLabel the label of the edge from the service: which failures wait here
     * @param returnLabel the label of the edge back: the delay
     */
    public record TierNode(String id, String label, String retryLabel, String returnLabel) {
    }

    static GeneratedFile render(RetrySpec spec, Path file, String sourceName) {
        List<ServiceNode> services = new ArrayList<>();
        for (int index = 0; index < spec.services().size(); index++) {
            services.add(service(spec.services().get(index), "s" + (index + 1)));
        }
        Variables variables = new Variables(markdownCode(spec.exchange()), sourceName,
                label(spec.exchange()) + "<br/>topic exchange", services);
        return GeneratedFile.of(file, Templates.json(TEMPLATE, variables));
    }

    private static ServiceNode service(Service service, String id) {
        int attempts = service.retryPolicy().maxAttempts();
        List<Tier> tiers = service.tiers();
        List<TierNode> tierNodes = new ArrayList<>();
        for (Tier tier : tiers) {
            tierNodes.add(new TierNode(id + "_t" + tier.number(),
                    label(tier.queue()) + "<br/>TTL " + Durations.format(tier.delay()),
                    PolicyText.tierCause(service, tier), "after " + Durations.format(tier.delay())));
        }
        List<String> park = PolicyText.parkCauses(service);
        String brokerDelay = PolicyText.brokerRetryCause(service)
                .map(cause -> cause + ": the broker holds it back " + PolicyText.brokerDelays(service)).orElse("");
        String keys = service.routes().stream().map(route -> label(route.key().value())).collect(Collectors.joining("<br/>"));
        List<String> row = List.of(
                markdownCode(service.name()),
                service.routes().stream().map(route -> markdownCode(route.key().value())).collect(Collectors.joining(", ")),
                String.valueOf(attempts),
                markdownCell(PolicyText.delays(service)),
                service.queueType().id(),
                markdownCode(service.parkingLot()));
        return new ServiceNode(id, label(service.queue()), keys, tierNodes, label(brokerDelay), label(service.parkingLot()),
                String.join("<br/>", park), row);
    }

    /** Text safe inside a quoted Mermaid label: entity codes for the characters Mermaid reads. */
    static String label(String text) {
        return text.replace("#", "#35;").replace("\"", "#quot;").replace("<", "#lt;").replace(">", "#gt;");
    }

    private static String markdownCode(String text) {
        return "`" + markdownCell(text).replace("`", "'") + "`";
    }

    private static String markdownCell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
