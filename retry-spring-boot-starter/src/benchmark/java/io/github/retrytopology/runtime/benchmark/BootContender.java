package io.github.retrytopology.runtime.benchmark;

import io.github.retrytopology.benchmark.PlainHandler;
import io.github.retrytopology.benchmark.RetryTopology;
import io.github.retrytopology.model.Names;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.runtime.consumer.DeliveryContext;
import io.github.retrytopology.runtime.consumer.GeneratedTopology;
import io.github.retrytopology.spring.RetryConsumers;
import io.github.retrytopology.spring.RetryMetricsAutoConfiguration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * The benchmark's service {@code plain} consumed by a Spring Boot application with the starter: its handler is a
 * bean, and the consumers are the starter's, on the connection it opens from {@code spring.rabbitmq.*}; with or
 * without Boot's Micrometer registry. The
 * application starts once, with its consumers stopped ({@code retry.auto-startup=false}); each round starts and
 * stops them, so that a round measures the consumer under Boot, not Boot's start-up, as the runtime's own round
 * does not measure the JVM's.
 */
final class BootContender implements Contender {

    private final String amqpUri;
    private final boolean metrics;
    private final Handler handler = new Handler();
    private ConfigurableApplicationContext application;

    BootContender(String amqpUri, boolean metrics) {
        this.amqpUri = amqpUri;
        this.metrics = metrics;
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {
    }

    /** Counts each message handled, for the round that runs. */
    static final class Handler implements PlainHandler {
        volatile Counter counter;

        @Override
        public void benchPlain(DeliveryContext context) {
            counter.done();
        }
    }

    @Override
    public String name() {
        return metrics ? "under Spring Boot, Boot's metrics" : "retry-runtime under Spring Boot";
    }

    @Override
    public Running start(ConsumerBenchmark.Connections connections, Service service, ConsumerBenchmark.Options options,
            Counter counter) {
        if (!service.equals(RetryTopology.PLAIN)) {
            throw new IllegalArgumentException("the Spring Boot contender consumes service plain only");
        }
        handler.counter = counter;
        RetryConsumers consumers = application(options).getBean(RetryConsumers.class);
        consumers.start();
        return consumers::stop;
    }

    private static Set<String> everyService() {
        ClassLoader loader = BootContender.class.getClassLoader();
        Set<String> names = new TreeSet<>();
        try {
            for (Resource resource : new PathMatchingResourcePatternResolver(loader)
                    .getResources("classpath*:" + Names.TOPOLOGY_RESOURCE_PATTERN)) {
                GeneratedTopology.load(resource.getURL(), loader).spec().services()
                        .forEach(service -> names.add(service.name()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return names;
    }

    private ConfigurableApplicationContext application(ConsumerBenchmark.Options options) {
        if (application == null) {
            List<String> properties = new ArrayList<>(List.of("spring.rabbitmq.addresses=" + amqpUri,
                    "retry.auto-startup=false", "spring.main.banner-mode=off",
                    "retry.services.plain.consumers=" + options.consumers(),
                    "retry.services.plain.prefetch=" + options.prefetch()));
            if (!metrics) {
                // The application has Actuator (the tests do); without its registry, as the runtime alone runs.
                properties.add("spring.autoconfigure.exclude=" + RetryMetricsAutoConfiguration.class.getName());
            }
            // Every other service generated into the class path, the tests' own included, is left unconsumed.
            everyService().stream().filter(name -> !name.equals(RetryTopology.PLAIN.name()))
                    .forEach(name -> properties.add("retry.services." + name + ".enabled=false"));
            application = new SpringApplicationBuilder(Application.class)
                    .web(WebApplicationType.NONE)
                    .logStartupInfo(false)
                    .properties(properties.toArray(String[]::new))
                    .initializers(context -> context.getBeanFactory().registerSingleton("plainHandler", handler))
                    .run();
        }
        return application;
    }
}
