package io.github.retrytopology.model.validate;

import io.github.retrytopology.model.BindingKey;
import io.github.retrytopology.model.Names;
import io.github.retrytopology.model.Route;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.problem.ProblemCode;
import io.github.retrytopology.model.read.Located;
import io.github.retrytopology.model.read.Problems;
import io.github.retrytopology.model.read.SpecDraft.RouteDraft;
import io.github.retrytopology.model.read.SpecDraft.ServiceDraft;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.lang.model.SourceVersion;

/**
 * A service's routing keys, their handlers and payload classes: keys RabbitMQ binds, listed once and never
 * shadowed by an earlier one, handler names Java takes, and payload classes whose names generated code can write.
 */
final class RouteChecks {

    private final Problems problems;

    RouteChecks(Problems problems) {
        this.problems = problems;
    }

    /** Every payload class of the spec, for the checks across them. */
    private final List<Located<String>> payloads = new ArrayList<>();

    /**
     * Refuses a payload class whose simple name is the first word of a package that generated code writes out
     * in full, such as {@code a} beside {@code a.b.DeliveryContext}: Java would read that package as the class.
     */
    void checkPayloadNames(String javaPackage) {
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

    List<Route> routes(ServiceDraft service) {
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

    Optional<Route> route(RouteDraft draft, Map<String, Located<String>> keys,
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
        boolean payloadValid = draft.payload() == null || JavaNames.checkClassName(problems, draft.payload(), "a payload class");
        if (draft.payload() != null && payloadValid) {
            payloads.add(draft.payload());
        }
        if (handler.isEmpty() || !payloadValid) {
            return Optional.empty();
        }
        return Optional.of(new Route(bindingKey, handler.get(),
                Optional.ofNullable(draft.payload()).map(Located::value)));
    }

    Optional<String> handler(RouteDraft draft, BindingKey key, Map<String, Located<String>> handlers) {
        Located<String> handler = draft.handler();
        if (handler == null) {
            if (key.hasWildcards()) {
                String suggestion = Names.handlerMethod(key.value().replace("*", "any").replace("#", "all"))
                        .filter(name -> JavaNames.identifierProblem(name) == null && JavaNames.bytes(name) <= Names.MAX_JAVA_NAME_BYTES)
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
        String reason = JavaNames.identifierProblem(name);
        if (reason != null) {
            problems.report(handler, ProblemCode.BAD_HANDLER, from + reason + fix);
            return Optional.empty();
        }
        if (JavaNames.bytes(name) > Names.MAX_JAVA_NAME_BYTES) {
            problems.report(handler, ProblemCode.NAME_TOO_LONG, from + "handler '" + name + "' is " + JavaNames.bytes(name)
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
}
