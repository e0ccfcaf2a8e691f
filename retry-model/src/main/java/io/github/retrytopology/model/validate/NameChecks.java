package io.github.retrytopology.model.validate;

import io.github.retrytopology.model.Names;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.problem.ProblemCode;
import io.github.retrytopology.model.read.Located;
import io.github.retrytopology.model.read.Problems;
import io.github.retrytopology.model.read.SpecDraft.ServiceDraft;
import io.github.retrytopology.model.topology.Binding;
import io.github.retrytopology.model.topology.KubernetesNames;
import io.github.retrytopology.model.topology.Queue;
import io.github.retrytopology.model.topology.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The names a spec gives the broker and the names derived from them: the virtual host, the exchange, service names,
 * the queues a service keeps, the longest queue and file names each service makes, and the Kubernetes resource names
 * its objects make.
 */
final class NameChecks {

    private final Problems problems;

    NameChecks(Problems problems) {
        this.problems = problems;
    }

    String vhost(Located<String> vhost) {
        String name = vhost.value();
        if (name.isEmpty() || JavaNames.hasControlCharacters(name) || !Names.fitsBroker(name)) {
            problems.report(vhost, ProblemCode.BAD_VHOST, "'" + name + "' is not a virtual host name; expected "
                    + "at most " + Names.MAX_NAME_BYTES + " bytes without control characters, such as /");
        }
        return name;
    }

    String exchange(Located<String> exchange) {
        if (exchange == null) {
            return null;
        }
        String name = exchange.value();
        if (name.isEmpty()) {
            problems.report(exchange, ProblemCode.BAD_EXCHANGE,
                    "the exchange has no name; the default exchange cannot be bound to");
        } else if (name.startsWith(Names.RESERVED_PREFIX)) {
            problems.report(exchange, ProblemCode.BAD_EXCHANGE, "'" + name + "' starts with 'amq.', which RabbitMQ "
                    + "reserves for its own exchanges; name an exchange of your own");
        } else if (JavaNames.hasControlCharacters(name)) {
            problems.report(exchange, ProblemCode.BAD_EXCHANGE, "'" + name + "' contains a control character");
        } else if (!Names.fitsBroker(name)) {
            problems.report(exchange, ProblemCode.NAME_TOO_LONG, "'" + name + "' is " + JavaNames.bytes(name)
                    + " bytes long; RabbitMQ allows at most " + Names.MAX_NAME_BYTES);
        }
        return name;
    }

    /** A service's queue and where the spec keeps its name. */
    record KeptQueue(Located<String> service, Located<String> queue) {
    }

    /**
     * The queue a service consumes: the one the spec keeps, if it is a name RabbitMQ lets us declare, or the
     * service's name. Empty if the kept name is refused, or if the service has no valid name to derive one from.
     */
    Optional<String> queue(ServiceDraft draft, boolean named) {
        Located<String> queue = draft.queue();
        String service = draft.name().value();
        if (queue == null) {
            return named ? Optional.of(Names.queue(service)) : Optional.empty();
        }
        String name = queue.value();
        String instead = named ? "; drop 'queue' to consume '" + Names.queue(service) + "', the service's own name" : "";
        if (name.isEmpty()) {
            problems.report(queue, ProblemCode.BAD_QUEUE, "the queue has no name, and RabbitMQ would make one up on "
                    + "every declaration" + instead);
        } else if (name.startsWith(Names.RESERVED_PREFIX)) {
            problems.report(queue, ProblemCode.BAD_QUEUE, "'" + name + "' starts with '" + Names.RESERVED_PREFIX
                    + "', which RabbitMQ reserves for the queues it names itself, and no client may declare" + instead);
        } else if (JavaNames.hasControlCharacters(name)) {
            problems.report(queue, ProblemCode.BAD_QUEUE, "'" + name + "' contains a control character" + instead);
        } else if (!Names.fitsBroker(name)) {
            problems.report(queue, ProblemCode.NAME_TOO_LONG, "'" + name + "' is " + JavaNames.bytes(name)
                    + " bytes long; RabbitMQ allows at most " + Names.MAX_NAME_BYTES);
        } else if (!named) {
            return Optional.empty();
        } else {
            Optional<Names.QueueName> own = Names.parseQueue(name).filter(parsed -> parsed.service().equals(service)
                    && (parsed.migration() || parsed.role() != Names.QueueRole.SERVICE));
            if (own.isEmpty()) {
                return Optional.of(name);
            }
            problems.report(queue, ProblemCode.NAME_COLLISION, "queue '" + name + "' of service '" + service
                    + "' is named as " + describe(own.get()) + " of that service; name it otherwise, or drop 'queue' "
                    + "to consume '" + Names.queue(service) + "'");
        }
        return Optional.empty();
    }

    /**
     * Refuses a kept queue that plan and apply would take for another queue of the spec: one named as a queue of
     * another service of the spec would be (its tiers, parking lot and the temporary queues of migrations
     * included), another service's kept queue, or the temporary queue of a migration of one.
     */
    void checkKeptQueues(List<KeptQueue> kept, Map<String, Located<String>> services) {
        Map<String, KeptQueue> byName = new HashMap<>();
        List<KeptQueue> unshaped = new ArrayList<>();
        for (KeptQueue queue : kept) {
            String name = queue.queue().value();
            String service = queue.service().value();
            String instead = "; name it otherwise, or drop 'queue' to consume '" + Names.queue(service) + "'";
            Optional<Names.QueueName> shape = Names.parseQueue(name).filter(parsed -> services.containsKey(parsed.service()));
            if (shape.isPresent()) {
                Located<String> other = services.get(shape.get().service());
                problems.report(queue.queue(), ProblemCode.NAME_COLLISION, "queue '" + name + "' of service '" + service
                        + "' is named as " + describe(shape.get()) + " of service '" + other.value() + "' (line "
                        + other.position().line() + "), and plan and apply would take it for one of "
                        + other.value() + "'s" + instead);
                continue;
            }
            KeptQueue first = byName.putIfAbsent(name, queue);
            if (first != null) {
                problems.report(queue.queue(), ProblemCode.NAME_COLLISION, "services '" + service + "' and '"
                        + first.service().value() + "' (line " + first.service().position().line()
                        + ") both consume queue '" + name + "', but each service needs a queue of its own" + instead);
                continue;
            }
            unshaped.add(queue);
        }
        for (KeptQueue queue : unshaped) {
            String name = queue.queue().value();
            KeptQueue migrated = Names.isMigrationQueue(name) ? byName.get(Names.migratedQueue(name)) : null;
            if (migrated != null) {
                problems.report(queue.queue(), ProblemCode.NAME_COLLISION, "queue '" + name + "' of service '"
                        + queue.service().value() + "' is the temporary queue that apply --migrate makes for '"
                        + migrated.queue().value() + "', the queue of service '" + migrated.service().value()
                        + "' (line " + migrated.service().position().line() + "); name it otherwise, or drop 'queue' "
                        + "to consume '" + Names.queue(queue.service().value()) + "'");
            }
        }
    }

    /**
     * Refuses a spec where two queues, two policies or two bindings would have one resource name of the
     * messaging-topology-operator ({@link KubernetesNames}), reported where the later of the two services is named,
     * or where it keeps the queue concerned.
     */
    void checkResourceNames(RetrySpec spec, Map<String, Located<String>> services, Map<String, Located<String>> kept) {
        Map<String, String> serviceOf = new HashMap<>();
        for (Service service : spec.services()) {
            serviceOf.put(service.queue(), service.name());
            service.tiers().forEach(tier -> serviceOf.put(tier.queue(), service.name()));
            serviceOf.put(service.parkingLot(), service.name());
        }
        Topology topology = Topology.of(spec);
        List<Resource> resources = new ArrayList<>();
        for (Queue queue : topology.queues()) {
            resources.add(new Resource("Queue", "queue '" + queue.name() + "'", KubernetesNames.queue(queue),
                    queue.name()));
        }
        topology.policiesByQueue().forEach((queue, policy) -> resources.add(new Resource("Policy", "policy '"
                + policy.name() + "'", KubernetesNames.policy(policy), queue)));
        for (Binding binding : topology.bindings()) {
            resources.add(new Resource("Binding", "the binding of '" + binding.routingKey() + "' to queue '"
                    + binding.queue() + "'", KubernetesNames.binding(binding), binding.queue()));
        }
        Map<String, Resource> byName = new HashMap<>();
        for (Resource resource : resources) {
            Resource first = byName.putIfAbsent(resource.kind() + " " + resource.name(), resource);
            if (first == null) {
                continue;
            }
            Located<String> here = where(resource, serviceOf, services, kept);
            Located<String> there = where(first, serviceOf, services, kept);
            Resource later = resource;
            Resource earlier = first;
            if (here.position().line() < there.position().line()) {
                Located<String> swap = here;
                here = there;
                there = swap;
                later = first;
                earlier = resource;
            }
            problems.report(here, ProblemCode.KUBERNETES_NAME_COLLISION, later.object() + " of service '"
                    + serviceOf.get(later.queue()) + "' and " + earlier.object() + " of service '"
                    + serviceOf.get(earlier.queue()) + "' (line " + there.position().line() + ") both make the "
                    + "Kubernetes " + resource.kind() + " resource '" + resource.name() + "', and the "
                    + "messaging-topology-operator's resources could not tell them apart; name one otherwise");
        }
    }

    /** An object of the topology, with the resource name it makes and the queue that places it in a service. */
    private record Resource(String kind, String object, String name, String queue) {
    }

    private static Located<String> where(Resource resource, Map<String, String> serviceOf,
            Map<String, Located<String>> services, Map<String, Located<String>> kept) {
        String service = serviceOf.get(resource.queue());
        Located<String> keptQueue = kept.get(service);
        return keptQueue != null && keptQueue.value().equals(resource.queue()) ? keptQueue : services.get(service);
    }

    /** Which of a service's queues a name is, in words: {@code the wait queue of tier 2}. */
    static String describe(Names.QueueName name) {
        String queue = switch (name.role()) {
            case SERVICE -> "the queue";
            case TIER -> "the wait queue of tier " + name.tier();
            case PARKING_LOT -> "the parking lot";
        };
        return name.migration() ? "the temporary queue that apply --migrate makes for " + queue : queue;
    }

    boolean checkServiceName(Located<String> name) {
        if (Names.isServiceName(name.value())) {
            return true;
        }
        String suggestion = kebabCase(name.value());
        String hint = Names.isServiceName(suggestion) ? ", such as '" + suggestion + "'" : "";
        problems.report(name, ProblemCode.BAD_SERVICE_NAME, "'" + name.value() + "' is not a service name; "
                + "expected lower-case words of letters and digits joined by hyphens, starting with a letter" + hint);
        return false;
    }

    /**
     * Reports a service name that makes a generated file's name or one of its queues' names too long.
     *
     * @return whether every name it makes fits, so that the service can be built
     */
    boolean checkLength(Located<String> name, int tiers) {
        String fileName = Names.longestFileName(name.value());
        if (JavaNames.bytes(fileName) > Names.MAX_JAVA_NAME_BYTES) {
            problems.report(name, ProblemCode.NAME_TOO_LONG, "service '" + name.value() + "' makes the generated file "
                    + "name '" + fileName + "', " + JavaNames.bytes(fileName) + " bytes long; file systems allow at most "
                    + Names.MAX_JAVA_NAME_BYTES);
            return false;
        }
        List<String> longest = new ArrayList<>(List.of(Names.parkingLot(name.value())));
        if (tiers > 0) {
            longest.add(Names.tierQueue(name.value(), tiers));
        }
        for (String queue : longest) {
            if (!Names.fitsBroker(queue)) {
                problems.report(name, ProblemCode.NAME_TOO_LONG, "service '" + name.value() + "' makes the queue name '"
                        + queue + "', " + JavaNames.bytes(queue) + " bytes long; RabbitMQ allows at most " + Names.MAX_NAME_BYTES);
                return false;
            }
        }
        return true;
    }

    static String kebabCase(String name) {
        return name.strip()
                .replaceAll("([a-z0-9])([A-Z])", "$1-$2")
                .replaceAll("[^A-Za-z0-9]+", "-")
                .replaceAll("^-+|-+$", "")
                .toLowerCase(Locale.ROOT);
    }

    /**
     * Refuses a service whose Java type is the generated topology class, one of its constants, or another service's
     * type, in any case.
     *
     * @param byJavaType the services so far, by their Java type in lower case
     */
    void checkJavaType(Located<String> name, Map<String, Located<String>> byJavaType) {
        String javaType = Names.javaType(name.value());
        Located<String> first = byJavaType.putIfAbsent(javaType.toLowerCase(Locale.ROOT), name);
        if (javaType.equals(Names.TOPOLOGY_CLASS)) {
            problems.report(name, ProblemCode.NAME_COLLISION, "service '" + name.value() + "' would be the "
                    + "Java type " + javaType + ", which is the generated topology class; rename it");
        } else if (Names.TOPOLOGY_CONSTANTS.contains(Names.constant(name.value()))) {
            problems.report(name, ProblemCode.NAME_COLLISION, "service '" + name.value() + "' would be the "
                    + "constant " + Names.constant(name.value()) + ", which the generated topology class "
                    + "already has; rename it");
        } else if (first != null && Names.javaType(first.value()).equals(javaType)) {
            problems.report(name, ProblemCode.NAME_COLLISION, "services '" + name.value() + "' and '"
                    + first.value() + "' (line " + first.position().line() + ") both become the Java type "
                    + javaType + "; rename one");
        } else if (first != null) {
            problems.report(name, ProblemCode.NAME_COLLISION, "services '" + name.value() + "' and '"
                    + first.value() + "' (line " + first.position().line() + ") become the Java types "
                    + javaType + " and " + Names.javaType(first.value()) + ", which differ only in case: on a "
                    + "file system that ignores case, as macOS's and Windows' do, their files are one; rename one");
        }
    }
}
