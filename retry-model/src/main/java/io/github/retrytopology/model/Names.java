package io.github.retrytopology.model;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every name this project derives, in one place: queues, policies and the generated Java types and
 * members. The generator and the runtime ask here; nothing else composes a name.
 *
 * <p>For a service {@code cdn-purge}:
 * <ul>
 *   <li>{@code cdn-purge}: the queue the service consumes, bound to the exchange with its routing keys, unless the
 *       spec keeps the name of a queue it consumes today ({@code queue:}), which is then the only name not derived;
 *   <li>{@code cdn-purge.retry.1}, {@code cdn-purge.retry.2}, ...: one wait queue per delay tier, numbered from
 *       1, which dead-letter back to {@code cdn-purge} when their TTL expires;
 *   <li>{@code cdn-purge.parking-lot}: where messages go when they will not be retried;
 *   <li>each of these queues has a policy of the same name; a kept queue's policy is named {@code cdn-purge};
 *   <li>{@code CdnPurgeHandler}: the generated handler interface; {@code RetryTopology.CdnPurge}: its names.
 * </ul>
 * Queue names are numbered by tier rather than named by delay, so that changing a delay changes a policy and
 * never leaves an orphaned queue behind.
 */
public final class Names {

    /** RabbitMQ's limit on queue and exchange names, in UTF-8 bytes. */
    public static final int MAX_NAME_BYTES = 255;

    /** The prefix of the names RabbitMQ keeps for its own exchanges and queues, which no client may declare. */
    public static final String RESERVED_PREFIX = "amq.";

    /** The generated class that holds every name and policy as constants. */
    public static final String TOPOLOGY_CLASS = "RetryTopology";

    /** The generated topology class's constant that holds the whole spec. */
    public static final String SPEC_CONSTANT = "SPEC";

    /**
     * The directory of the generated resources, one per spec, that name each spec's topology class to code that
     * finds it at run time, such as the Spring Boot starter.
     */
    public static final String TOPOLOGY_RESOURCES = "META-INF/retry-topology/";

    private static final String TOPOLOGY_RESOURCE_EXTENSION = ".properties";

    /** Every such resource, as a class path pattern: {@code META-INF/retry-topology/*.properties}. */
    public static final String TOPOLOGY_RESOURCE_PATTERN = TOPOLOGY_RESOURCES + "*" + TOPOLOGY_RESOURCE_EXTENSION;

    /** The key, in such a resource, whose value is the topology class's name. */
    public static final String TOPOLOGY_RESOURCE_KEY = "topology";

    /** The constants of the generated topology class besides one per service, which no service may take. */
    public static final Set<String> TOPOLOGY_CONSTANTS =
            Set.of(SPEC_CONSTANT, "VHOST", "EXCHANGE", "DEFINITIONS", "VHOST_DEFINITIONS", "DIAGRAM");

    /**
     * The most UTF-8 bytes of a name the generated code writes or makes a file of: a Java package, a class
     * name, a handler method, and each generated file's name, which file systems limit to 255 bytes.
     */
    public static final int MAX_JAVA_NAME_BYTES = 255;

    /**
     * The first words of the packages that generated code refers to by qualified name, besides the spec's own
     * and its payloads': a payload class of the same simple name would hide them.
     */
    public static final Set<String> GENERATED_CODE_PACKAGE_ROOTS = Set.of("io", "java", "javax");

    /** Handler names the generated handler interface cannot use as methods. */
    public static final Set<String> RESERVED_HANDLER_NAMES = Set.of(
            // Members of java.lang.Object, which an implementation would overload confusingly.
            "clone", "equals", "finalize", "getClass", "hashCode", "notify", "notifyAll", "toString", "wait",
            // The generated interface's own static method.
            "routes");

    /**
     * A service name, as a regular expression that Java and JavaScript read alike: lower-case words of letters and
     * digits joined by single hyphens, starting with a letter.
     */
    public static final String SERVICE_NAME_REGEX = "[a-z][a-z0-9]*(?:-[a-z0-9]+)*";
    private static final Pattern SERVICE_NAME = Pattern.compile(SERVICE_NAME_REGEX);
    private static final String TIER_INFIX = ".retry.";
    private static final String PARKING_LOT_SUFFIX = ".parking-lot";
    private static final String MIGRATION_SUFFIX = ".migrating";
    private static final Pattern TIER_QUEUE =
            Pattern.compile("(" + SERVICE_NAME_REGEX + ")" + Pattern.quote(TIER_INFIX) + "([1-9][0-9]{0,8})");

    private Names() {
    }

    /** Returns whether a service name is lower-kebab-case: lower-case words of letters and digits, joined by hyphens. */
    public static boolean isServiceName(String name) {
        return SERVICE_NAME.matcher(name).matches();
    }

    /** The queue a service consumes unless the spec keeps another for it: the service's name. */
    public static String queue(String service) {
        return service;
    }

    /** The wait queue of a delay tier, numbered from 1. */
    public static String tierQueue(String service, int tier) {
        if (tier < 1) {
            throw new IllegalArgumentException("tiers are numbered from 1, got " + tier);
        }
        return service + TIER_INFIX + tier;
    }

    /** The queue where a service's messages go when they will not be retried. */
    public static String parkingLot(String service) {
        return service + PARKING_LOT_SUFFIX;
    }

    /**
     * The temporary queue that holds a queue's messages while the queue is deleted and declared again with
     * other arguments: {@code cdn-purge.retry.1.migrating}. It is never a name of the topology itself.
     */
    public static String migrationQueue(String queue) {
        return queue + MIGRATION_SUFFIX;
    }

    /**
     * What a queue name says about itself: the service it belongs to and which of the service's queues it is,
     * or, for a temporary migration queue, the queue it holds the messages of. Empty for a name this project
     * never derives. A name says nothing about which spec it belongs to: {@code billing} may be a service
     * queue of ours, or anybody's queue; the caller decides with what else it knows. Nor does it know the queues
     * a spec keeps ({@code ucenter@user}): {@link QueueNames} reads a name with the spec.
     */
    public static Optional<QueueName> parseQueue(String name) {
        boolean migrating = isMigrationQueue(name);
        String queue = migrating ? migratedQueue(name) : name;
        Optional<QueueName> parsed = parseTopologyQueue(queue);
        return migrating ? parsed.map(QueueName::migrating) : parsed;
    }

    private static Optional<QueueName> parseTopologyQueue(String name) {
        if (isServiceName(name)) {
            return Optional.of(new QueueName(name, name, QueueRole.SERVICE, 0, false));
        }
        if (name.endsWith(PARKING_LOT_SUFFIX)) {
            String service = name.substring(0, name.length() - PARKING_LOT_SUFFIX.length());
            return isServiceName(service)
                    ? Optional.of(new QueueName(name, service, QueueRole.PARKING_LOT, 0, false))
                    : Optional.empty();
        }
        Matcher tier = TIER_QUEUE.matcher(name);
        if (tier.matches()) {
            return Optional.of(new QueueName(name, tier.group(1), QueueRole.TIER, Integer.parseInt(tier.group(2)),
                    false));
        }
        return Optional.empty();
    }

    /** Which of a service's queues a name is. */
    public enum QueueRole {
        /** The queue the service consumes, which has the service's name or the one the spec keeps. */
        SERVICE,
        /** A wait queue of a delay tier. */
        TIER,
        /** The parking lot. */
        PARKING_LOT
    }

    /**
     * A queue name as this project derives it, or as a spec keeps it.
     *
     * @param name the whole name, as given
     * @param service the service it belongs to
     * @param role which of the service's queues it is, or holds the messages of
     * @param tier the tier's number for a tier queue, 0 otherwise
     * @param migration whether this is the temporary queue of a migration of that queue
     */
    public record QueueName(String name, String service, QueueRole role, int tier, boolean migration) {

        public QueueName {
            requireNonNull(name, "name");
            requireNonNull(service, "service");
            requireNonNull(role, "role");
            if ((role == QueueRole.TIER) != (tier > 0)) {
                throw new IllegalArgumentException("only a tier queue has a tier number: " + role + " " + tier);
            }
        }

        /** The queue of the topology this name is, or holds the messages of while it is migrated. */
        public String topologyQueue() {
            return migration ? migratedQueue(name) : name;
        }

        /**
         * The policy that configures {@link #topologyQueue()}: named after the queue, as the service's names derive
         * it, so that the policy of a kept queue is named after its service.
         */
        public String policy() {
            return Names.policy(switch (role) {
                case SERVICE -> queue(service);
                case TIER -> tierQueue(service, tier);
                case PARKING_LOT -> parkingLot(service);
            });
        }

        /** The temporary queue of a migration of the queue this name is. */
        QueueName migrating() {
            return new QueueName(migrationQueue(name), service, role, tier, true);
        }
    }

    /** Whether a name is that of a migration's temporary queue, {@code cdn-purge.migrating}. */
    public static boolean isMigrationQueue(String name) {
        return name.endsWith(MIGRATION_SUFFIX);
    }

    /** The queue whose messages a migration's temporary queue holds: the name without its suffix. */
    public static String migratedQueue(String temporary) {
        return temporary.substring(0, temporary.length() - MIGRATION_SUFFIX.length());
    }

    /**
     * The policy that configures a queue whose name derives from its service's: it has the queue's name. A kept
     * queue's policy has the name its service's queue would have had ({@link Service#queuePolicy()}).
     */
    public static String policy(String queue) {
        return queue;
    }

    /** A policy pattern that matches exactly one queue name and no other. */
    public static String exactPattern(String name) {
        StringBuilder pattern = new StringBuilder("^");
        name.codePoints().forEach(c -> {
            if (c < 128 && !Character.isLetterOrDigit(c)) {
                pattern.append('\\');
            }
            pattern.appendCodePoint(c);
        });
        return pattern.append('$').toString();
    }

    /** Returns whether a name fits RabbitMQ's limit for queue and exchange names. */
    public static boolean fitsBroker(String name) {
        return name.getBytes(StandardCharsets.UTF_8).length <= MAX_NAME_BYTES;
    }

    /** The Java type name of a service: {@code cdn-purge} is {@code CdnPurge}. */
    public static String javaType(String service) {
        StringBuilder type = new StringBuilder();
        for (String word : service.split("-")) {
            type.append(Character.toUpperCase(word.charAt(0))).append(word, 1, word.length());
        }
        return type.toString();
    }

    /**
     * The resource that names the topology class of the spec of a package, under {@link #TOPOLOGY_RESOURCES}:
     * {@code META-INF/retry-topology/com.acme.media.retry.properties}.
     */
    public static String topologyResource(String javaPackage) {
        return TOPOLOGY_RESOURCES + javaPackage + TOPOLOGY_RESOURCE_EXTENSION;
    }

    /** The generated handler interface of a service: {@code cdn-purge} is {@code CdnPurgeHandler}. */
    public static String handlerInterface(String service) {
        return javaType(service) + "Handler";
    }

    /**
     * The longest file name generated for a service: its handler interface's class file, or the class file of
     * its nested class of names in the topology class, {@code RetryTopology$CdnPurge.class}.
     */
    public static String longestFileName(String service) {
        String handler = handlerInterface(service) + ".class";
        String names = TOPOLOGY_CLASS + "$" + javaType(service) + ".class";
        return handler.length() >= names.length() ? handler : names;
    }

    /** The constant, in a service's class of names, that holds the wait queue of a tier: {@code RETRY_1}. */
    public static String tierConstant(int tier) {
        if (tier < 1) {
            throw new IllegalArgumentException("tiers are numbered from 1, got " + tier);
        }
        return "RETRY_" + tier;
    }

    /** The constant that holds a service's model: {@code cdn-purge} is {@code CDN_PURGE}. */
    public static String constant(String service) {
        return service.replace('-', '_').toUpperCase(Locale.ROOT);
    }

    /**
     * The handler method a routing key without wildcards gets when the spec names none: its words, split on
     * anything that is not a letter or digit, in lower camel case. {@code photo.deleted} is
     * {@code photoDeleted}. Empty if the key has no letter or digit at all.
     */
    public static Optional<String> handlerMethod(BindingKey key) {
        return handlerMethod(key.value());
    }

    /** The handler method named after the words of this text, as {@link #handlerMethod(BindingKey)} names it. */
    public static Optional<String> handlerMethod(String key) {
        StringBuilder method = new StringBuilder();
        for (String word : key.split("[^\\p{L}\\p{Nd}]+")) {
            if (word.isEmpty()) {
                continue;
            }
            int first = word.codePointAt(0);
            int casedFirst = method.length() == 0 ? Character.toLowerCase(first) : Character.toUpperCase(first);
            method.appendCodePoint(casedFirst).append(word, Character.charCount(first), word.length());
        }
        return method.length() == 0 ? Optional.empty() : Optional.of(method.toString());
    }

    /** The Java source form of a binary class name: nested classes are separated by dots, not dollars. */
    public static String sourceName(String binaryName) {
        return binaryName.replace('$', '.');
    }
}
