package io.github.retrytopology.spring;

import io.github.retrytopology.model.Names;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.runtime.codec.PayloadCodec;
import io.github.retrytopology.runtime.consumer.GeneratedTopology;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.consumer.Routes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.springframework.aop.scope.ScopedProxyUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.ResourcePatternResolver;

/** Finds the generated topologies on the class path, and the handler bean of each of their services. */
final class HandlerBeans {

    private HandlerBeans() {
    }

    /** Every spec generated into the class path, by the resource the plugin writes beside it. */
    static List<GeneratedTopology> topologies(ResourcePatternResolver resolver, ClassLoader loader) {
        Resource[] resources;
        try {
            resources = resolver.getResources(ResourcePatternResolver.CLASSPATH_ALL_URL_PREFIX
                    + Names.TOPOLOGY_RESOURCE_PATTERN);
        } catch (IOException e) {
            throw new UncheckedIOException("could not list " + Names.TOPOLOGY_RESOURCE_PATTERN + " on the class path",
                    e);
        }
        Map<String, GeneratedTopology> byClass = new TreeMap<>();
        for (Resource resource : resources) {
            try {
                GeneratedTopology topology = GeneratedTopology.load(resource.getURL(), loader);
                // The same jar twice on a class path lists its resource twice.
                byClass.putIfAbsent(topology.topologyClass().getName(), topology);
            } catch (IOException e) {
                throw new UncheckedIOException("could not read " + resource, e);
            }
        }
        return List.copyOf(byClass.values());
    }

    /**
     * The services to consume, each with the routes to its one handler bean, and its settings.
     *
     * @throws RetryConfigurationException listing every service without a handler bean or with more than one, or
     *     with payloads the codec cannot decode, every {@code retry.services} entry that names no service, and
     *     every setting out of range
     */
    static List<ServiceHandler> resolve(List<GeneratedTopology> topologies, ListableBeanFactory beans,
            RetryProperties properties, PayloadCodec codec) {
        List<String> problems = new ArrayList<>();
        Set<String> known = new LinkedHashSet<>();
        topologies.forEach(topology -> topology.spec().services().forEach(service -> known.add(service.name())));
        properties.getServices().keySet().stream().filter(name -> !known.contains(name)).forEach(name -> problems.add(
                "retry.services." + name + " names no service of retry.yml, whose services are "
                        + String.join(", ", known)));
        properties.getServices().forEach((name, settings) -> {
            if (settings.getConsumers() < 1) {
                problems.add("retry.services." + name + ".consumers is at least 1, got " + settings.getConsumers());
            }
            if (settings.getPrefetch() < 1 || settings.getPrefetch() > RetryingConsumer.MAX_PREFETCH) {
                problems.add("retry.services." + name + ".prefetch is between 1 and " + RetryingConsumer.MAX_PREFETCH
                        + ", got " + settings.getPrefetch());
            }
        });
        List<ServiceHandler> handlers = new ArrayList<>();
        for (GeneratedTopology topology : topologies) {
            for (Service service : topology.spec().services()) {
                RetryProperties.Service settings = properties.service(service.name());
                if (!settings.isEnabled()) {
                    continue;
                }
                Class<?> type = topology.handlerInterface(service);
                List<String> names = Arrays.stream(beans.getBeanNamesForType(type, true, false))
                        .filter(name -> !ScopedProxyUtils.isScopedTarget(name))
                        .toList();
                if (names.isEmpty()) {
                    problems.add("service '" + service.name() + "' has no handler: no bean implements "
                            + type.getName() + " (set retry.services." + service.name()
                            + ".enabled=false to leave it unconsumed)");
                } else if (names.size() > 1) {
                    problems.add("service '" + service.name() + "' has " + names.size() + " handler beans, and one "
                            + "consumes it: " + names.stream().map(name -> describe(beans, name))
                                    .collect(Collectors.joining(", ")) + " all implement " + type.getName());
                } else {
                    Routes routes = topology.routes(service, beans.getBean(names.get(0)));
                    List<String> undecodable = routes.undecodable(codec);
                    if (undecodable.isEmpty()) {
                        handlers.add(new ServiceHandler(service, names.get(0), routes, settings));
                    } else {
                        problems.add("service '" + service.name() + "' takes payloads that no codec decodes: "
                                + String.join(", ", undecodable) + " (add spring-boot-starter-jackson for JSON, "
                                + "or declare a PayloadCodec bean)");
                    }
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new RetryConfigurationException(problems, "Give each service of retry.yml exactly one bean that "
                    + "implements its generated handler interface, or disable it with "
                    + "retry.services.<service>.enabled=false; name only services of retry.yml under retry.services.");
        }
        return handlers;
    }

    private static String describe(ListableBeanFactory beans, String name) {
        Class<?> type = beans.getType(name, false);
        return "'" + name + "'" + (type == null ? "" : " (" + type.getName() + ")");
    }
}
