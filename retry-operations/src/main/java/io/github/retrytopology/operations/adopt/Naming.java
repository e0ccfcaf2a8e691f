package io.github.retrytopology.operations.adopt;

import io.github.retrytopology.model.Names;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.lang.model.SourceVersion;

/** The names a draft gives what the broker names otherwise: services, the Java package, a new exchange. */
final class Naming {

    /** The longest service name made from a queue's, so that every name derived from it fits the broker. */
    private static final int LONGEST_SERVICE = 120;

    private final Set<String> services = new HashSet<>();
    private final Set<String> javaTypes = new HashSet<>();

    /**
     * A service name made from a queue's: its words in lower case joined by hyphens ({@code ucenter@user} is
     * {@code ucenter-user}, {@code service_a_input_q} is {@code service-a-input-q}), unique among those given
     * before, also as a Java type, and none that the generated topology class holds already.
     */
    String service(String queue) {
        String base = queue.replaceAll("([a-z0-9])([A-Z])", "$1-$2")
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9]+", "-")
                .replaceAll("^-+|-+$", "");
        if (base.isEmpty()) {
            base = "service";
        } else if (!Character.isLetter(base.charAt(0))) {
            base = "q-" + base;
        }
        if (base.length() > LONGEST_SERVICE) {
            base = base.substring(0, LONGEST_SERVICE).replaceAll("-+$", "");
        }
        if (Names.javaType(base).equals(Names.TOPOLOGY_CLASS) || Names.TOPOLOGY_CONSTANTS.contains(Names.constant(base))) {
            base = base + "-service";
        }
        String name = base;
        for (int suffix = 2; services.contains(name) || javaTypes.contains(javaType(name)); suffix++) {
            name = base + "-" + suffix;
        }
        services.add(name);
        javaTypes.add(javaType(name));
        return name;
    }

    private static String javaType(String service) {
        return Names.javaType(service).toLowerCase(Locale.ROOT);
    }

    /**
     * A Java package made from a virtual host's name: its words in lower case joined by dots, then {@code retry}
     * ({@code service_a_vh} is {@code service.a.vh.retry}); {@code retry} alone for {@code /}.
     */
    static String javaPackage(String vhost) {
        List<String> parts = new ArrayList<>();
        for (String word : vhost.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
            if (word.isEmpty()) {
                continue;
            }
            String part = Character.isDigit(word.charAt(0)) ? "v" + word : word;
            parts.add(SourceVersion.isKeyword(part) ? part + "_" : part);
        }
        if (!parts.isEmpty() && parts.get(0).startsWith("java")) {
            parts.add(0, "vhost"); // packages under java belong to the JDK
        }
        parts.add("retry");
        String name = String.join(".", parts);
        return name.getBytes(StandardCharsets.UTF_8).length <= Names.MAX_JAVA_NAME_BYTES ? name : "adopted.retry";
    }

    /**
     * A name for a new topic exchange beside the one publishers use, which is not a topic exchange:
     * {@code service_a_inner_exch.topic}; {@code events} when they use none, or one of RabbitMQ's own.
     *
     * @param taken the exchanges that exist
     */
    static String topicExchange(String publishers, Set<String> taken) {
        String base = publishers.isEmpty() || publishers.startsWith("amq.") ? "events" : publishers + ".topic";
        String name = base;
        for (int suffix = 2; taken.contains(name); suffix++) {
            name = base + "-" + suffix;
        }
        return name;
    }
}
