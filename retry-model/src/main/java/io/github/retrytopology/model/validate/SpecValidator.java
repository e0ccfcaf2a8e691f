package io.github.retrytopology.model.validate;

import io.github.retrytopology.model.BindingKey;
import io.github.retrytopology.model.Names;
import io.github.retrytopology.model.QueueSettings;
import io.github.retrytopology.model.QueueType;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Route;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.decision.Backoff;
import io.github.retrytopology.model.decision.BrokerDelay;
import io.github.retrytopology.model.decision.DelayBackend;
import io.github.retrytopology.model.decision.Durations;
import io.github.retrytopology.model.decision.RetryPolicy;
import io.github.retrytopology.model.problem.ProblemCode;
import io.github.retrytopology.model.read.Located;
import io.github.retrytopology.model.read.Problems;
import io.github.retrytopology.model.read.SpecDraft.BackoffDraft;
import io.github.retrytopology.model.read.SpecDraft.PolicyDraft;
import io.github.retrytopology.model.read.SpecDraft.RouteDraft;
import io.github.retrytopology.model.read.SpecDraft.ServiceDraft;
import io.github.retrytopology.model.read.SpecDraft;
import io.github.retrytopology.model.read.Suggestions;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import javax.lang.model.SourceVersion;

/**
 * Checks what a spec's values mean, across the whole spec, and builds the model from a spec without
 * problems. Every rule that spans several values lives here: inheritance from {@code defaults}, names that
 * collide once derived, handler names, routing keys that shadow each other, and the broker's limits.
 */
public final class SpecValidator {

    /** The version of the spec language this validator reads. */
    public static final int VERSION = 1;

    private static final String DEFAULT_VHOST = "/";
    private static final Set<String> RESTRICTED_TYPE_NAMES = Set.of("var", "yield", "record", "sealed", "permits");
    private static final Pattern WHOLE_NUMBER = Pattern.compile("[+-]?\\d+");
    private static final Pattern DECIMAL = Pattern.compile("\\d+(\\.\\d+)?");

    private final Problems problems;
    /** Every payload class of the spec, for the checks across them. */
    private final List<Located<String>> payloads = new ArrayList<>();

    private SpecValidator(Problems problems) {
        this.problems = problems;
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
        String vhost = draft.vhost() == null ? DEFAULT_VHOST : vhost(draft.vhost());
        String exchange = exchange(draft.exchange());
        QueueSettings queueSettings = choice(draft.queueSettings(), QueueSettings.values(), QueueSettings::id,
                QueueSettings.POLICIES);
        Settings defaults = settings(draft.defaults());
        List<Service> services = services(draft.services(), defaults);
        checkPayloadNames(javaPackage);
        if (!problems.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new RetrySpec(javaPackage, vhost, exchange, queueSettings, services));
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
        String reason = packageProblem(name);
        if (reason != null) {
            problems.report(javaPackage, ProblemCode.BAD_PACKAGE, "'" + name + "' is not a Java package name: "
                    + reason + "; expected lower-case words joined by dots, such as com.acme.retry");
        } else if (bytes(name) > Names.MAX_JAVA_NAME_BYTES) {
            problems.report(javaPackage, ProblemCode.NAME_TOO_LONG, "package '" + name + "' is " + bytes(name)
                    + " bytes long; at most " + Names.MAX_JAVA_NAME_BYTES + " make a path that every file system takes");
        }
        return name;
    }

    /** Says why generated code cannot be put in this package, or null if it can. */
    private static String packageProblem(String name) {
        String[] parts = name.split("\\.", -1);
        for (String part : parts) {
            String reason = part.isEmpty() ? "it has an empty part" : identifierProblem(part);
            if (reason != null) {
                return reason;
            }
            if (part.contains("$")) {
                return "'" + part + "' has a '$', which marks nested classes in the names of generated code";
            }
        }
        if (startsUpperCase(parts[0])) {
            return "'" + parts[0] + "' starts with an upper-case letter, so Java could read it as a class, such as "
                    + "one of java.lang";
        }
        if (name.equals("java") || name.startsWith("java.")) {
            return "packages under 'java' belong to the JDK";
        }
        for (Module module : ModuleLayer.boot().modules()) {
            if (module.getPackages().contains(name)) {
                return "the JDK's module " + module.getName() + " has it, and code outside the module cannot join it";
            }
        }
        return null;
    }

    /** Says why this is not a Java identifier as javac reads it, or null if it is one. */
    private static String identifierProblem(String name) {
        if (SourceVersion.isKeyword(name)) {
            return "'" + name + "' is a Java keyword";
        }
        if (!SourceVersion.isIdentifier(name)) {
            return "'" + name + "' is not a Java identifier";
        }
        OptionalInt ignored = name.codePoints().filter(Character::isIdentifierIgnorable).findFirst();
        if (ignored.isPresent()) {
            return String.format("'%s' holds U+%04X, which javac ignores in names", name, ignored.getAsInt());
        }
        return null;
    }

    private static boolean startsUpperCase(String name) {
        int first = name.codePointAt(0);
        return Character.isUpperCase(first) || Character.isTitleCase(first);
    }

    private String vhost(Located<String> vhost) {
        String name = vhost.value();
        if (name.isEmpty() || hasControlCharacters(name) || !Names.fitsBroker(name)) {
            problems.report(vhost, ProblemCode.BAD_VHOST, "'" + name + "' is not a virtual host name; expected "
                    + "at most " + Names.MAX_NAME_BYTES + " bytes without control characters, such as /");
        }
        return name;
    }

    private String exchange(Located<String> exchange) {
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
        } else if (hasControlCharacters(name)) {
            problems.report(exchange, ProblemCode.BAD_EXCHANGE, "'" + name + "' contains a control character");
        } else if (!Names.fitsBroker(name)) {
            problems.report(exchange, ProblemCode.NAME_TOO_LONG, "'" + name + "' is " + bytes(name)
                    + " bytes long; RabbitMQ allows at most " + Names.MAX_NAME_BYTES);
        }
        return name;
    }

    /** The retry settings of one mapping, each absent (null) or checked. */
    private record Settings(
            Setting<Integer> maxAttempts,
            Setting<Backoff> backoff,
            Setting<DelayBackend> delayBy,
            Setting<QueueType> queueType,
            Setting<List<String>> nonRetryable) {
    }

    /**
     * One setting that a mapping sets: its value if valid, null if a problem has been reported about it.
     * Either way it overrides the default.
     */
    private record Setting<T>(T value, Located<?> source) {
        boolean valid() {
            return value != null;
        }
    }

    private Settings settings(PolicyDraft draft) {
        Setting<Backoff> backoff = null;
        if (draft.delays() != null && draft.backoff() != null) {
            problems.report(draft.backoff(), ProblemCode.DELAYS_AND_BACKOFF,
                    "'backoff' and 'delays' are both set here; keep one of them");
            backoff = new Setting<>(null, draft.backoff());
        } else if (draft.delays() != null) {
            backoff = new Setting<>(delays(draft.delays()), draft.delays());
        } else if (draft.backoff() != null) {
            backoff = new Setting<>(exponential(draft.backoff()), draft.backoff());
        }
        return new Settings(
                draft.maxAttempts() == null ? null : new Setting<>(maxAttempts(draft.maxAttempts()), draft.maxAttempts()),
                backoff,
                draft.delayBy() == null ? null : new Setting<>(
                        choice(draft.delayBy(), DelayBackend.values(), DelayBackend::id, null), draft.delayBy()),
                draft.queueType() == null ? null : new Setting<>(
                        choice(draft.queueType(), QueueType.values(), QueueType::id, null), draft.queueType()),
                draft.nonRetryable() == null ? null : new Setting<>(nonRetryable(draft.nonRetryable()), draft.nonRetryable()));
    }

    private Integer maxAttempts(Located<String> maxAttempts) {
        String text = maxAttempts.value();
        if (!WHOLE_NUMBER.matcher(text).matches()) {
            problems.report(maxAttempts, ProblemCode.WRONG_TYPE,
                    "'" + text + "' is not a whole number; expected a number of attempts, such as 4");
            return null;
        }
        long attempts;
        try {
            attempts = Long.parseLong(text);
        } catch (NumberFormatException tooLong) {
            attempts = Long.MAX_VALUE;
        }
        if (attempts < 1) {
            problems.report(maxAttempts, ProblemCode.BAD_MAX_ATTEMPTS, "maxAttempts is " + text
                    + "; it counts every delivery, the first included, so it is at least 1 (1 means never retry)");
            return null;
        }
        if (attempts > Integer.MAX_VALUE) {
            problems.report(maxAttempts, ProblemCode.BAD_MAX_ATTEMPTS,
                    "maxAttempts is " + text + "; it can be at most " + Integer.MAX_VALUE);
            return null;
        }
        return (int) attempts;
    }

    private Backoff delays(Located<List<Located<String>>> delays) {
        if (delays.value().isEmpty()) {
            problems.report(delays, ProblemCode.MISSING_DELAYS, "'delays' is empty; list at least one, such as [10s]");
            return null;
        }
        List<Duration> parsed = new ArrayList<>();
        for (Located<String> delay : delays.value()) {
            parsed.add(delay(delay));
        }
        return parsed.contains(null) ? null : new Backoff.Delays(parsed);
    }

    private Backoff exponential(Located<BackoffDraft> backoff) {
        BackoffDraft draft = backoff.value();
        Duration initial = draft.initial() == null ? null : delay(draft.initial());
        Duration max = draft.max() == null ? null : delay(draft.max());
        BigDecimal multiplier = null;
        if (draft.multiplier() != null) {
            String text = draft.multiplier().value();
            if (!DECIMAL.matcher(text).matches()) {
                problems.report(draft.multiplier(), ProblemCode.BAD_BACKOFF, "multiplier '" + text
                        + "' is not a number; expected how much each delay grows, such as 2 or 1.5");
            } else if (new BigDecimal(text).compareTo(BigDecimal.ONE) < 0) {
                problems.report(draft.multiplier(), ProblemCode.BAD_BACKOFF, "multiplier " + text
                        + " would make each delay shorter than the one before; expected 1 or more");
            } else {
                multiplier = new BigDecimal(text);
            }
        }
        if (initial != null && max != null && max.compareTo(initial) < 0) {
            problems.report(draft.max(), ProblemCode.BAD_BACKOFF, "max " + draft.max().value()
                    + " is shorter than initial " + draft.initial().value() + "; expected at least the initial delay");
            return null;
        }
        if (initial == null || multiplier == null || (draft.max() != null && max == null)) {
            return null;
        }
        return new Backoff.Exponential(initial, multiplier, Optional.ofNullable(max));
    }

    private Duration delay(Located<String> text) {
        try {
            Duration delay = Durations.parse(text.value());
            if (delay.compareTo(Durations.MAX_TTL) <= 0) {
                return delay;
            }
        } catch (IllegalArgumentException e) {
            problems.report(text, ProblemCode.BAD_DURATION, e.getMessage());
            return null;
        } catch (ArithmeticException tooLong) {
            // Reported below, with every other delay above the limit.
        }
        problems.report(text, ProblemCode.DELAY_TOO_LONG, "'" + text.value() + "' is longer than RabbitMQ's largest "
                + "TTL, 2^32-1 ms (" + Durations.format(Durations.MAX_TTL) + ")");
        return null;
    }

    private List<String> nonRetryable(Located<List<Located<String>>> classes) {
        List<String> names = new ArrayList<>();
        for (Located<String> name : classes.value()) {
            if (checkClassName(name, "an exception class")) {
                names.add(name.value());
            }
        }
        return names.size() == classes.value().size() ? List.copyOf(names) : null;
    }

    private boolean checkClassName(Located<String> name, String what) {
        String binary = name.value();
        String reason = classNameProblem(binary);
        if (reason != null) {
            problems.report(name, ProblemCode.BAD_CLASS_NAME, "'" + binary + "' is not the binary name of "
                    + what + ": " + reason);
            return false;
        }
        return true;
    }

    private static String classNameProblem(String binary) {
        String source = Names.sourceName(binary);
        if (!SourceVersion.isName(source)) {
            return "expected dot-separated Java identifiers, such as com.acme.BadInput (nested classes after a $)";
        }
        if (!binary.contains(".")) {
            List<String> jdk = jdkClassesNamed(binary);
            return "it has no package; write its fully qualified name, with the package it is declared in"
                    + (jdk.isEmpty() ? "" : ", such as " + String.join(" or ", jdk));
        }
        for (String part : source.split("\\.")) {
            String reason = identifierProblem(part);
            if (reason != null) {
                return reason;
            }
        }
        String javaPackage = binary.substring(0, binary.lastIndexOf('.'));
        if (javaPackage.contains("$")) {
            return "'$' marks a nested class, so it cannot be in the package, '" + javaPackage + "'";
        }
        String root = javaPackage.split("\\.")[0];
        if (startsUpperCase(root)) {
            return "its package starts with '" + root + "', an upper-case word that Java could read as a class, "
                    + "such as one of java.lang";
        }
        for (String part : binary.substring(javaPackage.length() + 1).split("\\$")) {
            if (RESTRICTED_TYPE_NAMES.contains(part)) {
                return "'" + part + "' cannot name a class";
            }
        }
        if (bytes(binary) > Names.MAX_JAVA_NAME_BYTES) {
            return "it is " + bytes(binary) + " bytes long; at most " + Names.MAX_JAVA_NAME_BYTES;
        }
        return null;
    }

    /**
     * The public classes of the JDK's standard packages with this simple name, {@code java.lang}'s first: the
     * likely meaning of a name written without its package. Asked only for a name already refused.
     */
    private static List<String> jdkClassesNamed(String simpleName) {
        return ModuleLayer.boot().modules().stream()
                .filter(module -> module.getName().startsWith("java."))
                .flatMap(module -> module.getDescriptor().exports().stream())
                .filter(export -> !export.isQualified())
                .map(export -> export.source() + "." + simpleName)
                .sorted(Comparator.comparing((String name) -> !name.startsWith("java.lang.")).thenComparing(name -> name))
                .filter(SpecValidator::isPublicJdkClass)
                .limit(3)
                .toList();
    }

    private static boolean isPublicJdkClass(String name) {
        try {
            return Modifier.isPublic(Class.forName(name, false, ClassLoader.getPlatformClassLoader()).getModifiers());
        } catch (ClassNotFoundException | LinkageError notThere) {
            return false;
        }
    }

    /**
     * Refuses a payload class whose simple name is the first word of a package that generated code writes out
     * in full, such as {@code a} beside {@code a.b.DeliveryContext}: Java would read that package as the class.
     */
    private void checkPayloadNames(String javaPackage) {
        Map<String, String> roots = new HashMap<>();
        Names.GENERATED_CODE_PACKAGE_ROOTS.forEach(root -> roots.put(root, "the generated code's " + root + "."));
        if (javaPackage != null) {
            roots.putIfAbsent(javaPackage.split("\\.")[0], "the package " + javaPackage);
        }
        for (Located<String> payload : payloads) {
            roots.putIfAbsent(payload.value().split("\\.")[0], "the package of " + payload.value());
        }
        for (Located<String> payload : payloads) {
            String binary = payload.value();
            for (String simpleName : binary.substring(binary.lastIndexOf('.') + 1).split("\\$")) {
                String root = roots.get(simpleName);
                if (root != null) {
                    problems.report(payload, ProblemCode.NAME_COLLISION, "payload class '" + binary + "' is named '"
                            + simpleName + "', the first word of " + root + "; in generated code Java would read that "
                            + "package as this class, so rename one of them");
                    break;
                }
            }
        }
    }

    private List<Service> services(Located<List<ServiceDraft>> services, Settings defaults) {
        if (services == null) {
            return List.of();
        }
        if (services.value().isEmpty()) {
            problems.report(services, ProblemCode.NO_SERVICES, "there are no services; declare at least one");
            return List.of();
        }
        List<Service> built = new ArrayList<>();
        Map<String, Located<String>> byJavaType = new HashMap<>();
        Map<String, Located<String>> named = new HashMap<>();
        List<KeptQueue> kept = new ArrayList<>();
        long queues = 0;
        for (ServiceDraft draft : services.value()) {
            Located<String> name = draft.name();
            boolean valid = checkServiceName(name);
            Optional<String> queue = queue(draft, valid);
            if (valid && queue.isPresent() && !queue.get().equals(Names.queue(name.value()))) {
                kept.add(new KeptQueue(name, draft.queue()));
            }
            if (valid) {
                named.put(name.value(), name);
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
            List<Route> routes = routes(draft);
            Settings own = settings(draft.policy());
            QueueType queueType = inherit(own.queueType(), defaults.queueType(), QueueType.QUORUM);
            Optional<RetryPolicy> policy = policy(name, own, defaults, queueType);
            if (valid && queue.isPresent() && routes != null && policy.isPresent() && queueType != null) {
                int tiers = policy.get().tiers().size();
                checkLength(name, tiers);
                queues += 2 + tiers;
                built.add(new Service(name.value(), queue.get(), routes, policy.get(), queueType));
            }
        }
        checkKeptQueues(kept, named);
        if (queues > RetrySpec.MAX_QUEUES) {
            problems.report(services, ProblemCode.TOO_MANY_QUEUES, "these services would need " + queues + " queues,"
                    + " each service its own, its parking lot and one per delay tier; a spec may have at most "
                    + RetrySpec.MAX_QUEUES);
        }
        return built;
    }

    /** A service's queue and where the spec keeps its name. */
    private record KeptQueue(Located<String> service, Located<String> queue) {
    }

    /**
     * The queue a service consumes: the one the spec keeps, if it is a name RabbitMQ lets us declare, or the
     * service's name. Empty if the kept name is refused, or if the service has no valid name to derive one from.
     */
    private Optional<String> queue(ServiceDraft draft, boolean named) {
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
        } else if (hasControlCharacters(name)) {
            problems.report(queue, ProblemCode.BAD_QUEUE, "'" + name + "' contains a control character" + instead);
        } else if (!Names.fitsBroker(name)) {
            problems.report(queue, ProblemCode.NAME_TOO_LONG, "'" + name + "' is " + bytes(name)
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
    private void checkKeptQueues(List<KeptQueue> kept, Map<String, Located<String>> services) {
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

    /** Which of a service's queues a name is, in words: {@code the wait queue of tier 2}. */
    private static String describe(Names.QueueName name) {
        String queue = switch (name.role()) {
            case SERVICE -> "the queue";
            case TIER -> "the wait queue of tier " + name.tier();
            case PARKING_LOT -> "the parking lot";
        };
        return name.migration() ? "the temporary queue that apply --migrate makes for " + queue : queue;
    }

    private boolean checkServiceName(Located<String> name) {
        if (Names.isServiceName(name.value())) {
            return true;
        }
        String suggestion = kebabCase(name.value());
        String hint = Names.isServiceName(suggestion) ? ", such as '" + suggestion + "'" : "";
        problems.report(name, ProblemCode.BAD_SERVICE_NAME, "'" + name.value() + "' is not a service name; "
                + "expected lower-case words of letters and digits joined by hyphens, starting with a letter" + hint);
        return false;
    }

    private void checkLength(Located<String> name, int tiers) {
        String fileName = Names.longestFileName(name.value());
        if (bytes(fileName) > Names.MAX_JAVA_NAME_BYTES) {
            problems.report(name, ProblemCode.NAME_TOO_LONG, "service '" + name.value() + "' makes the generated file "
                    + "name '" + fileName + "', " + bytes(fileName) + " bytes long; file systems allow at most "
                    + Names.MAX_JAVA_NAME_BYTES);
            return;
        }
        List<String> longest = new ArrayList<>(List.of(Names.parkingLot(name.value())));
        if (tiers > 0) {
            longest.add(Names.tierQueue(name.value(), tiers));
        }
        for (String queue : longest) {
            if (!Names.fitsBroker(queue)) {
                problems.report(name, ProblemCode.NAME_TOO_LONG, "service '" + name.value() + "' makes the queue name '"
                        + queue + "', " + bytes(queue) + " bytes long; RabbitMQ allows at most " + Names.MAX_NAME_BYTES);
                return;
            }
        }
    }

    private List<Route> routes(ServiceDraft service) {
        if (service.routingKeys() == null) {
            return null;
        }
        if (service.routingKeys().value().isEmpty()) {
            problems.report(service.routingKeys(), ProblemCode.NO_ROUTING_KEYS,
                    "service '" + service.name().value() + "' has no routing keys; list at least one");
            return null;
        }
        if (service.routingKeys().value().size() > Service.MAX_ROUTING_KEYS) {
            problems.report(service.routingKeys(), ProblemCode.TOO_MANY_ROUTING_KEYS, "service '"
                    + service.name().value() + "' lists " + service.routingKeys().value().size() + " routing keys; a "
                    + "service may have at most " + Service.MAX_ROUTING_KEYS + ", so bind one of them with wildcards");
            return null;
        }
        List<Route> routes = new ArrayList<>();
        boolean valid = true;
        Map<String, Located<String>> keys = new LinkedHashMap<>();
        Map<String, Located<String>> handlers = new HashMap<>();
        List<Located<BindingKey>> earlier = new ArrayList<>();
        for (RouteDraft draft : service.routingKeys().value()) {
            Optional<Route> route = route(draft, keys, handlers, earlier);
            route.ifPresent(routes::add);
            valid &= route.isPresent();
        }
        return valid ? routes : null;
    }

    private Optional<Route> route(RouteDraft draft, Map<String, Located<String>> keys,
            Map<String, Located<String>> handlers, List<Located<BindingKey>> earlier) {
        Located<String> key = draft.key();
        Optional<String> keyProblem = BindingKey.problem(key.value());
        if (keyProblem.isPresent()) {
            problems.report(key, ProblemCode.BAD_ROUTING_KEY, keyProblem.get());
            return Optional.empty();
        }
        int anyWords = BindingKey.anyWords(key.value());
        if (anyWords > BindingKey.MAX_ANY_WORDS) {
            problems.report(key, ProblemCode.BAD_ROUTING_KEY, "'" + key.value() + "' has " + anyWords + " '#' words; "
                    + "RabbitMQ 4.3 refuses a topic binding key with more than " + BindingKey.MAX_ANY_WORDS);
            return Optional.empty();
        }
        Located<String> first = keys.putIfAbsent(key.value(), key);
        if (first != null) {
            problems.report(key, ProblemCode.DUPLICATE_ROUTING_KEY, "'" + key.value()
                    + "' is listed twice; the first is at line " + first.position().line());
            return Optional.empty();
        }
        BindingKey bindingKey = BindingKey.of(key.value());
        for (Located<BindingKey> before : earlier) {
            if (before.value().covers(bindingKey)) {
                problems.report(key, ProblemCode.SHADOWED_ROUTING_KEY, "'" + key.value() + "' is never reached: '"
                        + before.value() + "' (line " + before.position().line() + ") comes first and matches every "
                        + "routing key it matches; list the more specific key first");
                return Optional.empty();
            }
        }
        earlier.add(new Located<>(bindingKey, key.position(), key.path()));
        Optional<String> handler = handler(draft, bindingKey, handlers);
        boolean payloadValid = draft.payload() == null || checkClassName(draft.payload(), "a payload class");
        if (draft.payload() != null && payloadValid) {
            payloads.add(draft.payload());
        }
        if (handler.isEmpty() || !payloadValid) {
            return Optional.empty();
        }
        return Optional.of(new Route(bindingKey, handler.get(),
                Optional.ofNullable(draft.payload()).map(Located::value)));
    }

    private Optional<String> handler(RouteDraft draft, BindingKey key, Map<String, Located<String>> handlers) {
        Located<String> handler = draft.handler();
        if (handler == null) {
            if (key.hasWildcards()) {
                String suggestion = Names.handlerMethod(key.value().replace("*", "any").replace("#", "all"))
                        .filter(name -> identifierProblem(name) == null && bytes(name) <= Names.MAX_JAVA_NAME_BYTES)
                        .map(name -> ", such as 'handler: " + name + "'")
                        .orElse("");
                problems.report(draft.key(), ProblemCode.HANDLER_REQUIRED, "'" + key.value()
                        + "' has wildcards, so its handler needs a name" + suggestion);
                return Optional.empty();
            }
            Optional<String> derived = Names.handlerMethod(key);
            if (derived.isEmpty()) {
                problems.report(draft.key(), ProblemCode.BAD_HANDLER, "'" + key.value()
                        + "' has no letter or digit to name its handler after; name one with 'handler'");
                return Optional.empty();
            }
            handler = new Located<>(derived.get(), draft.key().position(), draft.key().path());
        }
        String name = handler.value();
        String from = draft.handler() == null ? "the handler name made from '" + key.value() + "', " : "";
        String fix = draft.handler() == null ? "; name one with 'handler'" : "";
        if (SourceVersion.isKeyword(name)) {
            problems.report(handler, ProblemCode.RESERVED_HANDLER, from + "'" + name + "' is a Java keyword" + fix);
            return Optional.empty();
        }
        String reason = identifierProblem(name);
        if (reason != null) {
            problems.report(handler, ProblemCode.BAD_HANDLER, from + reason + fix);
            return Optional.empty();
        }
        if (bytes(name) > Names.MAX_JAVA_NAME_BYTES) {
            problems.report(handler, ProblemCode.NAME_TOO_LONG, from + "handler '" + name + "' is " + bytes(name)
                    + " bytes long; at most " + Names.MAX_JAVA_NAME_BYTES);
            return Optional.empty();
        }
        if (Names.RESERVED_HANDLER_NAMES.contains(name)) {
            String owner = name.equals("routes") ? "the generated handler interface" : "java.lang.Object";
            problems.report(handler, ProblemCode.RESERVED_HANDLER, from + "'" + name + "' is a method of " + owner
                    + "; name the handler otherwise");
            return Optional.empty();
        }
        Located<String> first = handlers.putIfAbsent(name, handler);
        if (first != null) {
            problems.report(handler, ProblemCode.DUPLICATE_HANDLER, from + "handler '" + name
                    + "' is already used at line " + first.position().line() + "; give one of them another 'handler'");
            return Optional.empty();
        }
        return Optional.of(name);
    }

    private Optional<RetryPolicy> policy(Located<String> service, Settings own, Settings defaults, QueueType queueType) {
        Setting<Integer> maxAttempts = own.maxAttempts() != null ? own.maxAttempts() : defaults.maxAttempts();
        Setting<Backoff> backoff = own.backoff() != null ? own.backoff() : defaults.backoff();
        Setting<List<String>> nonRetryable = own.nonRetryable() != null ? own.nonRetryable() : defaults.nonRetryable();
        Setting<DelayBackend> delayBy = own.delayBy() != null ? own.delayBy() : defaults.delayBy();
        DelayBackend backend = delayBy == null ? DelayBackend.TIER_QUEUES : delayBy.value();
        if (backend == null) {
            return Optional.empty();
        }
        if (backend == DelayBackend.BROKER && queueType == QueueType.CLASSIC) {
            problems.report(delayBy.source(), ProblemCode.BROKER_DELAY, "service '" + service.value() + "' has the "
                    + "broker delay its retries, which only quorum queues do, but its queueType is classic; make it "
                    + "quorum, or delay by tier-queues");
            return Optional.empty();
        }
        if (maxAttempts == null) {
            problems.report(service, ProblemCode.MISSING_KEY, "service '" + service.value()
                    + "' has no maxAttempts, and defaults sets none; expected a number of attempts, such as 4");
            return Optional.empty();
        }
        if (!maxAttempts.valid() || (backoff != null && !backoff.valid())
                || (nonRetryable != null && !nonRetryable.valid())) {
            return Optional.empty();
        }
        int attempts = maxAttempts.value();
        List<String> classes = nonRetryable == null ? List.of() : nonRetryable.value();
        if (attempts == 1) {
            return Optional.of(new RetryPolicy(1, backoff == null ? Backoff.none() : backoff.value(), classes, backend));
        }
        if (backoff == null) {
            problems.report(service, ProblemCode.MISSING_DELAYS, "service '" + service.value() + "' retries (maxAttempts "
                    + attempts + ") but neither it nor defaults sets 'delays' or 'backoff'");
            return Optional.empty();
        }
        List<Duration> tiers = backoff.value().tiers(attempts - 1);
        if (tiers.size() > RetryPolicy.MAX_TIERS) {
            problems.report(backoff.source(), ProblemCode.TOO_MANY_TIERS, "service '" + service.value() + "' would need "
                    + "more than " + RetryPolicy.MAX_TIERS + " wait queues; set a 'max' on the backoff, or fewer delays");
            return Optional.empty();
        }
        for (int tier = 1; tier <= tiers.size(); tier++) {
            if (tiers.get(tier - 1).compareTo(Durations.MAX_TTL) > 0) {
                problems.report(backoff.source(), ProblemCode.DELAY_TOO_LONG, "for service '" + service.value()
                        + "' the backoff grows above RabbitMQ's largest TTL, " + Durations.format(Durations.MAX_TTL)
                        + ", by retry " + tier + "; set a 'max' of at most that, or fewer maxAttempts");
                return Optional.empty();
            }
        }
        if (backend == DelayBackend.BROKER && BrokerDelay.of(tiers, attempts - 1).isEmpty()) {
            problems.report(backoff.source(), ProblemCode.BROKER_DELAY, "service '" + service.value() + "' has the "
                    + "broker delay its retries, which waits d, 2d, 3d, ... up to a longest delay, and cannot wait "
                    + BrokerDelay.describe(tiers) + "; the nearest it can is "
                    + BrokerDelay.nearest(tiers, attempts - 1).describe(attempts - 1) + ", or delay by tier-queues");
            return Optional.empty();
        }
        return Optional.of(new RetryPolicy(attempts, backoff.value(), classes, backend));
    }

    private static <T> T inherit(Setting<T> own, Setting<T> defaults, T fallback) {
        Setting<T> setting = own != null ? own : defaults;
        return setting == null ? fallback : setting.value();
    }

    private <E> E choice(Located<String> value, E[] choices, Function<E, String> id, E fallback) {
        if (value == null) {
            return fallback;
        }
        for (E choice : choices) {
            if (id.apply(choice).equals(value.value())) {
                return choice;
            }
        }
        List<String> ids = Arrays.stream(choices).map(id).toList();
        String hint = Suggestions.didYouMean(value.value(), ids);
        problems.report(value, ProblemCode.UNKNOWN_VALUE, "'" + value.value() + "' is not one of "
                + String.join(", ", ids) + (hint.isEmpty() ? "" : hint));
        return null;
    }

    private static String kebabCase(String name) {
        return name.strip()
                .replaceAll("([a-z0-9])([A-Z])", "$1-$2")
                .replaceAll("[^A-Za-z0-9]+", "-")
                .replaceAll("^-+|-+$", "")
                .toLowerCase(Locale.ROOT);
    }

    private static boolean hasControlCharacters(String text) {
        return text.codePoints().anyMatch(Character::isISOControl);
    }

    private static int bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
