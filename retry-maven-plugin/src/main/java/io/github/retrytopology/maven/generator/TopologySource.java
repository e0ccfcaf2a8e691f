package io.github.retrytopology.maven.generator;

import io.github.retrytopology.model.Durations;
import io.github.retrytopology.model.Names;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Route;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.Tier;
import io.github.retrytopology.model.decision.Backoff;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The variables of {@code topology.java.ftl}: the class that holds every name and each service's model. */
public final class TopologySource {

    static final String TEMPLATE = "topology.java.ftl";

    private TopologySource() {
    }

    /**
     * @param javaPackage the package
     * @param imports the imports, sorted
     * @param generated how to write the {@code @Generated} annotation
     * @param generator the generator's name in it
     * @param name the class's name
     * @param sourceDoc the spec file's name, for Javadoc
     * @param exchangeDoc the exchange, for Javadoc
     * @param types how to write each type the class uses
     * @param vhost the virtual host
     * @param exchange the exchange
     * @param queueSettings the {@code QueueSettings} constant
     * @param definitions the resource name of the definitions
     * @param vhostDefinitions the resource name of the per-vhost definitions
     * @param diagram the resource name of the diagram
     * @param services the services, in the spec's order
     */
    public record Variables(String javaPackage, List<String> imports, String generated, String generator, String name,
            String sourceDoc, String exchangeDoc, Types types, String vhost, String exchange, String queueSettings,
            String definitions, String vhostDefinitions, String diagram, List<ServiceConstants> services) {
    }

    /** How the class writes each type it uses: imported, or qualified where a nested class shadows it. */
    public record Types(String service, String route, String retryPolicy, String backoff, String queueType,
            String queueSettings, String retrySpec, String duration, String bigDecimal, String list) {
    }

    /**
     * @param constant the constant holding the service's model
     * @param name the service's name
     * @param nameDoc the service's name, for Javadoc
     * @param policyDoc the service and its retry policy, for Javadoc, in lines
     * @param nestedClass the nested class holding its queue names
     * @param queue its queue
     * @param tiers its tiers
     * @param parkingLot its parking lot
     * @param maxAttempts its maximum attempts
     * @param routes its routes, in the spec's order
     * @param backoff its backoff
     * @param nonRetryable its non-retryable exception classes
     * @param queueType the {@code QueueType} constant
     */
    public record ServiceConstants(String constant, String name, String nameDoc, List<String> policyDoc, String nestedClass,
            String queue, List<TierConstant> tiers, String parkingLot, int maxAttempts, List<RouteCall> routes,
            Object backoff, List<String> nonRetryable, String queueType) {
    }

    /**
     * @param number the tier's number
     * @param constant its constant's name
     * @param queue its queue
     * @param delayDoc its delay, for Javadoc
     */
    public record TierConstant(int number, String constant, String queue, String delayDoc) {
    }

    /**
     * @param key the binding key
     * @param handler the handler method
     * @param typed whether it has a payload type
     * @param payload the payload type's binary name; empty if not typed
     */
    public record RouteCall(String key, String handler, boolean typed, String payload) {
    }

    /** A duration as the factory call that reads best: {@code Duration.ofMinutes(30)}. */
    public record DurationCall(String factory, long amount) {
        static DurationCall of(Duration duration) {
            long millis = duration.toMillis();
            if (millis % 86_400_000L == 0) {
                return new DurationCall("ofDays", millis / 86_400_000L);
            }
            if (millis % 3_600_000L == 0) {
                return new DurationCall("ofHours", millis / 3_600_000L);
            }
            if (millis % 60_000L == 0) {
                return new DurationCall("ofMinutes", millis / 60_000L);
            }
            if (millis % 1_000L == 0) {
                return new DurationCall("ofSeconds", millis / 1_000L);
            }
            return new DurationCall("ofMillis", millis);
        }
    }

    /** A backoff that never waits. */
    public record NoDelays(String kind) {
    }

    /** A list of delays; more than two are written one per line. */
    public record DelayList(String kind, List<DurationCall> delays, boolean multiline) {
    }

    /** A growth rule without a bound. */
    public record Growth(String kind, DurationCall initial, String multiplier) {
    }

    /** A growth rule with a bound. */
    public record BoundedGrowth(String kind, DurationCall initial, String multiplier, DurationCall max) {
    }

    static GeneratedFile render(RetrySpec spec, Path directory, String generator, String sourceName) {
        List<String> declared = new ArrayList<>(List.of(Names.TOPOLOGY_CLASS));
        spec.services().forEach(service -> declared.add(service.javaType()));
        Imports imports = new Imports(spec.javaPackage(), declared);
        String generated = imports.reference("javax.annotation.processing.Generated");
        Types types = new Types(
                imports.reference("io.github.retrytopology.model.Service"),
                imports.reference("io.github.retrytopology.model.Route"),
                imports.reference("io.github.retrytopology.model.decision.RetryPolicy"),
                imports.reference("io.github.retrytopology.model.decision.Backoff"),
                imports.reference("io.github.retrytopology.model.QueueType"),
                imports.reference("io.github.retrytopology.model.QueueSettings"),
                imports.reference("io.github.retrytopology.model.RetrySpec"),
                imports.reference("java.time.Duration"),
                imports.reference("java.math.BigDecimal"),
                imports.reference("java.util.List"));
        List<ServiceConstants> services = spec.services().stream().map(TopologySource::service).toList();
        Variables variables = new Variables(spec.javaPackage(), imports.imports(), generated, generator,
                Names.TOPOLOGY_CLASS, Javadoc.text(sourceName), Javadoc.code(spec.exchange()), types, spec.vhost(),
                spec.exchange(), spec.queueSettings().name(), Resources.DEFINITIONS, Resources.VHOST_DEFINITIONS,
                Resources.DIAGRAM, services);
        return GeneratedFile.of(directory.resolve(Names.TOPOLOGY_CLASS + ".java"), Templates.java(TEMPLATE, variables));
    }

    private static ServiceConstants service(Service service) {
        List<TierConstant> tiers = new ArrayList<>();
        for (Tier tier : service.tiers()) {
            tiers.add(new TierConstant(tier.number(), Names.tierConstant(tier.number()), tier.queue(),
                    Javadoc.text(Durations.format(tier.delay()))));
        }
        List<RouteCall> routes = new ArrayList<>();
        for (Route route : service.routes()) {
            routes.add(new RouteCall(route.key().value(), route.handler(), route.payloadType().isPresent(),
                    route.payloadType().orElse("")));
        }
        return new ServiceConstants(service.constant(), service.name(), Javadoc.code(service.name()),
                Javadoc.lines("Service " + Javadoc.code(service.name()) + ". " + Javadoc.text(PolicyText.describe(service)), 110),
                service.javaType(), service.queue(), tiers,
                service.parkingLot(), service.retryPolicy().maxAttempts(), routes, backoff(service.retryPolicy().backoff()),
                service.retryPolicy().nonRetryable(), service.queueType().name());
    }

    private static Object backoff(Backoff backoff) {
        if (backoff instanceof Backoff.Delays delays) {
            if (delays.delays().isEmpty()) {
                return new NoDelays("none");
            }
            return new DelayList("delays", delays.delays().stream().map(DurationCall::of).toList(),
                    delays.delays().size() > 2);
        }
        Backoff.Exponential growth = (Backoff.Exponential) backoff;
        String multiplier = growth.multiplier().toPlainString();
        return growth.max()
                .<Object>map(max -> new BoundedGrowth("bounded", DurationCall.of(growth.initial()), multiplier,
                        DurationCall.of(max)))
                .orElseGet(() -> new Growth("growth", DurationCall.of(growth.initial()), multiplier));
    }
}
