package io.github.retrytopology.model.validate;

import io.github.retrytopology.model.Names;
import io.github.retrytopology.model.QueueSettings;
import io.github.retrytopology.model.QueueType;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Route;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.decision.RetryPolicy;
import io.github.retrytopology.model.problem.ProblemCode;
import io.github.retrytopology.model.read.Located;
import io.github.retrytopology.model.read.Problems;
import io.github.retrytopology.model.read.SpecDraft;
import io.github.retrytopology.model.read.SpecDraft.ServiceDraft;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks what a spec's values mean, across the whole spec, and builds the model from a spec without
 * problems: the one entry point of the checks that span several values, each concern in a class of its own. The
 * names given to the broker and derived from them ({@link NameChecks}), the retry settings with their inheritance
 * from {@code defaults} and the policy they make ({@link PolicyChecks}), routing keys, handlers and payload classes
 * ({@link RouteChecks}); here, the version, the package, and the services with the limits across them.
 */
public final class SpecValidator {

    /** The version of the spec language this validator reads. */
    public static final int VERSION = 1;

    private static final String DEFAULT_VHOST = "/";

    private final Problems problems;
    private final NameChecks names;
    private final PolicyChecks policies;
    private final RouteChecks routes;
    /** Where each valid service is named, and where the spec keeps a queue for one, by the service's name. */
    private final Map<String, Located<String>> serviceNames = new HashMap<>();
    private final Map<String, Located<String>> keptQueues = new HashMap<>();

    private SpecValidator(Problems problems) {
        this.problems = problems;
        this.names = new NameChecks(problems);
        this.policies = new PolicyChecks(problems);
        this.routes = new RouteChecks(problems);
    }

    /**
     * Validates a draft, reporting every problem.
     *
     * @return the model, or nothing if this or an earlier step reported a problem
     */
    public static Optional<RetrySpec> validate(SpecDraft draft, Problems problems) {
        return new SpecValidator(problems).validate(draft);
    }

    private Optional<RetrySpec> validate(SpecDraft draft) {
        checkVersion(draft.version());
        String javaPackage = javaPackage(draft.javaPackage());
        String vhost = draft.vhost() == null ? DEFAULT_VHOST : names.vhost(draft.vhost());
        String exchange = names.exchange(draft.exchange());
        QueueSettings queueSettings = policies.choice(draft.queueSettings(), QueueSettings.values(), QueueSettings::id,
                QueueSettings.POLICIES);
        PolicyChecks.Settings defaults = policies.settings(draft.defaults());
        List<Service> services = services(draft.services(), defaults);
        routes.checkPayloadNames(javaPackage);
        if (!problems.isEmpty()) {
            return Optional.empty();
        }
        RetrySpec spec = new RetrySpec(javaPackage, vhost, exchange, queueSettings, services);
        names.checkResourceNames(spec, serviceNames, keptQueues);
        return problems.isEmpty() ? Optional.of(spec) : Optional.empty();
    }

    private void checkVersion(Located<String> version) {
        if (version != null && !version.value().equals(String.valueOf(VERSION))) {
            problems.report(version, ProblemCode.UNSUPPORTED_VERSION, "version '" + version.value()
                    + "' is not supported; this is version " + VERSION + " of the spec language");
        }
    }

    private String javaPackage(Located<String> javaPackage) {
        if (javaPackage == null) {
            return null;
        }
        String name = javaPackage.value();
        String reason = JavaNames.packageProblem(name);
        if (reason != null) {
            problems.report(javaPackage, ProblemCode.BAD_PACKAGE, "'" + name + "' is not a Java package name: "
                    + reason + "; expected lower-case words joined by dots, such as com.acme.retry");
        } else if (JavaNames.bytes(name) > Names.MAX_JAVA_NAME_BYTES) {
            problems.report(javaPackage, ProblemCode.NAME_TOO_LONG, "package '" + name + "' is " + JavaNames.bytes(name)
                    + " bytes long; at most " + Names.MAX_JAVA_NAME_BYTES + " make a path that every file system takes");
        }
        return name;
    }

    private List<Service> services(Located<List<ServiceDraft>> services, PolicyChecks.Settings defaults) {
        if (services == null) {
            return List.of();
        }
        if (services.value().isEmpty()) {
            problems.report(services, ProblemCode.NO_SERVICES, "there are no services; declare at least one");
            return List.of();
        }
        List<Service> built = new ArrayList<>();
        Map<String, Located<String>> byJavaType = new HashMap<>();
        Map<String, Located<String>> named = serviceNames;
        List<NameChecks.KeptQueue> kept = new ArrayList<>();
        long queues = 0;
        for (ServiceDraft draft : services.value()) {
            Located<String> name = draft.name();
            boolean valid = names.checkServiceName(name);
            Optional<String> queue = names.queue(draft, valid);
            if (valid && queue.isPresent() && !queue.get().equals(Names.queue(name.value()))) {
                kept.add(new NameChecks.KeptQueue(name, draft.queue()));
                keptQueues.put(name.value(), draft.queue());
            }
            if (valid) {
                named.put(name.value(), name);
                names.checkJavaType(name, byJavaType);
            }
            List<Route> serviceRoutes = routes.routes(draft);
            PolicyChecks.Settings own = policies.settings(draft.policy());
            QueueType queueType = PolicyChecks.inherit(own.queueType(), defaults.queueType(), QueueType.QUORUM);
            Optional<RetryPolicy> policy = policies.policy(name, own, defaults, queueType);
            if (valid && queue.isPresent() && serviceRoutes != null && policy.isPresent() && queueType != null) {
                int tiers = policy.get().tiers().size();
                queues += 2 + tiers;
                // A name too long for its queues is reported, not built: the service would refuse its own queue.
                if (names.checkLength(name, tiers)) {
                    built.add(new Service(name.value(), queue.get(), serviceRoutes, policy.get(), queueType));
                }
            }
        }
        names.checkKeptQueues(kept, named);
        if (queues > RetrySpec.MAX_QUEUES) {
            problems.report(services, ProblemCode.TOO_MANY_QUEUES, "these services would need " + queues + " queues,"
                    + " each service its own, its parking lot and one per delay tier; a spec may have at most "
                    + RetrySpec.MAX_QUEUES);
        }
        return built;
    }
}
