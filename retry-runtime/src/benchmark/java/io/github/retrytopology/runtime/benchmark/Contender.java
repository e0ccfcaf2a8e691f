package io.github.retrytopology.runtime.benchmark;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConfirmListener;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.Tier;
import io.github.retrytopology.model.decision.Decision;
import io.github.retrytopology.model.headers.Header;
import io.github.retrytopology.runtime.consumer.DeliveryContext;
import io.github.retrytopology.runtime.consumer.DeliveryObserver;
import io.github.retrytopology.runtime.consumer.RetryListener;
import io.github.retrytopology.runtime.consumer.Routes;
import io.github.retrytopology.runtime.consumer.ServiceConsumer;
import io.github.retrytopology.runtime.metrics.MicrometerRetryMetrics;
import io.github.retrytopology.runtime.tracing.OpenTelemetryTracing;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.springframework.amqp.core.AcknowledgeMode;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.listener.AbstractMessageListenerContainer;
import org.springframework.amqp.rabbit.listener.DirectMessageListenerContainer;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;

/** One way of consuming a service's queue that the benchmark measures. */
interface Contender {

    /** What the handler does with every message. */
    enum Work {
        /** It returns: the message is acknowledged. */
        SUCCEED,
        /** It fails: the message goes to the service's first tier, and is acknowledged once that is confirmed. */
        FAIL
    }

    /** A failure without a stack trace, the same for every message: the benchmark measures the consumer. */
    IllegalStateException FAILURE = new IllegalStateException("fails on purpose") {
        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    };

    String name();

    /**
     * Starts consuming, on one of the round's {@code connections} or, for a container that opens its own, from its
     * factory; {@code counter} hears of every message finished with.
     */
    Running start(ConsumerBenchmark.Connections connections, Service service, ConsumerBenchmark.Options options,
            Counter counter) throws Exception;

    /** A contender consuming. */
    interface Running {
        void stop() throws Exception;
    }

    /** The same contender under another name: where two of its kind run in one path, on different services. */
    default Contender named(String name) {
        Contender named = this;
        return new Contender() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Running start(ConsumerBenchmark.Connections connections, Service service,
                    ConsumerBenchmark.Options options, Counter counter) throws Exception {
                return named.start(connections, service, options, counter);
            }
        };
    }

    /** This project's consumer. */
    static Contender runtime(Work work) {
        return runtime(work, false);
    }

    /**
     * This project's consumer, over the protocol the service's spec names; if {@code observed}, with Micrometer's
     * metrics in a simple registry and a span of OpenTelemetry's SDK for each delivery (sampled, exported nowhere).
     */
    static Contender runtime(Work work, boolean observed) {
        return new Contender() {
            @Override
            public String name() {
                return observed ? "retry-runtime, metrics, spans" : "retry-runtime";
            }

            @Override
            public Running start(ConsumerBenchmark.Connections connections, Service service,
                    ConsumerBenchmark.Options options, Counter counter) throws IOException {
                Routes.Builder routes = Routes.builder(service);
                service.routes().forEach(route -> routes.on(route.key().value(), context -> {
                    if (work == Work.FAIL) {
                        throw FAILURE;
                    }
                    counter.done();
                }));
                List<RetryListener> listeners = new ArrayList<>(List.of(new RetryListener() {
                    @Override
                    public void onRetry(DeliveryContext context, Throwable failure, Tier tier) {
                        counter.done();
                    }

                    @Override
                    public void onRequeued(DeliveryContext context, Throwable failure, Decision.Requeue requeue) {
                        counter.done();
                    }
                }));
                List<DeliveryObserver> observers = new ArrayList<>();
                if (observed) {
                    MicrometerRetryMetrics metrics = MicrometerRetryMetrics.of(new SimpleMeterRegistry());
                    OpenTelemetrySdk openTelemetry = OpenTelemetrySdk.builder()
                            .setTracerProvider(SdkTracerProvider.builder().build()).build();
                    listeners.add(metrics);
                    observers.add(metrics);
                    observers.add(OpenTelemetryTracing.of(openTelemetry));
                }
                ServiceConsumer consumer = ConsumerBenchmark.startRuntime(connections, routes.build(), options,
                        listeners, observers);
                return () -> consumer.stop(Duration.ofSeconds(30));
            }
        };
    }

    /**
     * RabbitMQ's AMQP 1.0 client alone, accepting every message by hand: as many consumers as the runtime's, each
     * with the prefetch as its initial credit, on the round's AMQP 1.0 connection.
     */
    static Contender rawAmqp10() {
        return new Contender() {
            @Override
            public String name() {
                return "raw AMQP 1.0 client";
            }

            @Override
            public Running start(ConsumerBenchmark.Connections connections, Service service,
                    ConsumerBenchmark.Options options, Counter counter) {
                List<com.rabbitmq.client.amqp.Consumer> consumers = new ArrayList<>();
                for (int i = 0; i < options.consumers(); i++) {
                    consumers.add(connections.amqp10().consumerBuilder()
                            .queue(service.queue())
                            .initialCredits(options.prefetch())
                            .messageHandler((context, message) -> {
                                counter.done();
                                context.accept();
                            })
                            .build());
                }
                return () -> consumers.forEach(com.rabbitmq.client.amqp.Consumer::close);
            }
        };
    }

    /**
     * This project's consumer under Spring Boot, with the starter, where the benchmark runs from the starter's
     * module ({@code ./mvnw -pl retry-spring-boot-starter -am verify -Pbenchmark}), which holds it; none otherwise.
     *
     * @param amqpUri the broker and virtual host the application connects to
     * @param metrics whether the application has Boot's Micrometer registry, which the starter then reports to
     */
    static Optional<Contender> underSpringBoot(String amqpUri, boolean metrics) {
        try {
            Class<?> type = Class.forName("io.github.retrytopology.runtime.benchmark.BootContender");
            return Optional.of((Contender) type.getDeclaredConstructor(String.class, boolean.class)
                    .newInstance(amqpUri, metrics));
        } catch (ClassNotFoundException notThisModule) {
            return Optional.empty();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create the Spring Boot contender", e);
        }
    }

    /**
     * The Java client alone, doing the same work by hand: an acknowledgement per message; for a failure, a
     * persistent, mandatory publish to the tier queue with a header, acknowledged once the broker confirms it.
     */
    static Contender raw(Work work) {
        return raw(work, false);
    }

    /**
     * The Java client alone, as {@link #raw(Work)}; if {@code ourHeaders}, a failure's publish carries the headers
     * the runtime writes on a first failure, as strings and numbers of the same sizes: what those headers cost,
     * apart from the runtime's own work.
     */
    static Contender raw(Work work, boolean ourHeaders) {
        return new Contender() {
            @Override
            public String name() {
                return ourHeaders ? "raw, the runtime's headers" : "raw amqp-client";
            }

            @Override
            public Running start(ConsumerBenchmark.Connections connections, Service service,
                    ConsumerBenchmark.Options options, Counter counter) throws IOException {
                Connection connection = connections.amqp091();
                List<Channel> channels = new ArrayList<>();
                List<String> tags = new ArrayList<>();
                String tier = service.tiers().isEmpty() ? null : service.tiers().get(0).queue();
                for (int i = 0; i < options.consumers(); i++) {
                    Channel channel = connection.createChannel();
                    channels.add(channel);
                    channel.basicQos(options.prefetch());
                    ConcurrentNavigableMap<Long, Long> pending = new ConcurrentSkipListMap<>();
                    if (work == Work.FAIL) {
                        channel.confirmSelect();
                        channel.addConfirmListener(new ConfirmListener() {
                            @Override
                            public void handleAck(long sequence, boolean multiple) throws IOException {
                                for (long tag : take(pending, sequence, multiple)) {
                                    channel.basicAck(tag, false);
                                    counter.done();
                                }
                            }

                            @Override
                            public void handleNack(long sequence, boolean multiple) throws IOException {
                                for (long tag : take(pending, sequence, multiple)) {
                                    channel.basicNack(tag, false, true);
                                }
                            }
                        });
                    }
                    tags.add(channel.basicConsume(service.queue(), false, new DefaultConsumer(channel) {
                        private final String ids = Long.toString(System.nanoTime(), 36) + "-";
                        private long id;

                        @Override
                        public void handleDelivery(String consumerTag, Envelope envelope,
                                AMQP.BasicProperties properties, byte[] body) throws IOException {
                            if (work == Work.SUCCEED) {
                                counter.done();
                                channel.basicAck(envelope.getDeliveryTag(), false);
                                return;
                            }
                            Map<String, Object> headers = new HashMap<>();
                            if (ourHeaders) {
                                headers.put(Header.ATTEMPTS.name(), 1);
                                headers.put(Header.FIRST_FAILURE.name(), Instant.now().toString());
                                headers.put(Header.ORIGINAL_EXCHANGE.name(), envelope.getExchange());
                                headers.put(Header.ORIGINAL_ROUTING_KEY.name(), envelope.getRoutingKey());
                                headers.put(Header.EXCEPTION.name(), FAILURE.getClass().getName());
                                headers.put(Header.EXCEPTION_MESSAGE.name(), FAILURE.getMessage());
                                headers.put(Header.MESSAGE_ID.name(), ids + Long.toString(++id, 36));
                                headers.put(Header.PUBLISH_ID.name(), channel.getNextPublishSeqNo());
                            } else {
                                headers.put("attempts", 1);
                            }
                            AMQP.BasicProperties retry = properties.builder().headers(headers).deliveryMode(2).build();
                            synchronized (pending) {
                                pending.put(channel.getNextPublishSeqNo(), envelope.getDeliveryTag());
                                channel.basicPublish("", tier, true, retry, body);
                            }
                        }
                    }));
                }
                return () -> {
                    for (int i = 0; i < channels.size(); i++) {
                        channels.get(i).basicCancel(tags.get(i));
                    }
                    for (Channel channel : channels) {
                        channel.abort();
                    }
                };
            }
        };
    }

    /** What a raw consumer does with one delivery, on the channel it came on. */
    @FunctionalInterface
    interface RawHandler {
        void handle(Channel channel, Envelope envelope, AMQP.BasicProperties properties, byte[] body)
                throws IOException;
    }

    /**
     * Subscribes the raw Java client to {@code queue} as the contenders do: one channel per consumer, with the
     * prefetch, acknowledging by hand. Returns the channels, for the caller to close.
     */
    static List<Channel> subscribe(Connection connection, String queue, ConsumerBenchmark.Options options,
            RawHandler handler) throws IOException {
        List<Channel> channels = new ArrayList<>();
        for (int i = 0; i < options.consumers(); i++) {
            Channel channel = connection.createChannel();
            channels.add(channel);
            channel.basicQos(options.prefetch());
            channel.basicConsume(queue, false, new DefaultConsumer(channel) {
                @Override
                public void handleDelivery(String consumerTag, Envelope envelope, AMQP.BasicProperties properties,
                        byte[] body) throws IOException {
                    handler.handle(channel, envelope, properties, body);
                }
            });
        }
        return channels;
    }

    /** Takes out the delivery tags waiting for a confirm or refusal of {@code sequence}. */
    static List<Long> take(ConcurrentNavigableMap<Long, Long> pending, long sequence, boolean multiple) {
        List<Long> tags = new ArrayList<>();
        if (multiple) {
            var confirmed = pending.headMap(sequence, true);
            tags.addAll(confirmed.values());
            confirmed.clear();
        } else {
            Long tag = pending.remove(sequence);
            if (tag != null) {
                tags.add(tag);
            }
        }
        return tags;
    }

    /** Spring AMQP's SimpleMessageListenerContainer: its own consumer threads, automatic acknowledgements. */
    static Contender springSimple() {
        return spring("Spring SMLC", SimpleMessageListenerContainer::new, (container, consumers) -> ((SimpleMessageListenerContainer) container).setConcurrentConsumers(consumers));
    }

    /** Spring AMQP's DirectMessageListenerContainer: listeners on the client's threads, automatic acknowledgements. */
    static Contender springDirect() {
        return spring("Spring DMLC", DirectMessageListenerContainer::new,
                (container, consumers) -> ((DirectMessageListenerContainer) container).setConsumersPerQueue(consumers));
    }

    private static Contender spring(String name,
            java.util.function.Function<CachingConnectionFactory, AbstractMessageListenerContainer> create,
            java.util.function.BiConsumer<AbstractMessageListenerContainer, Integer> consumers) {
        return new Contender() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Running start(ConsumerBenchmark.Connections connections, Service service,
                    ConsumerBenchmark.Options options, Counter counter) {
                CachingConnectionFactory caching = new CachingConnectionFactory(connections.factory());
                AbstractMessageListenerContainer container = create.apply(caching);
                container.setQueueNames(service.queue());
                consumers.accept(container, options.consumers());
                container.setPrefetchCount(options.prefetch());
                container.setAcknowledgeMode(AcknowledgeMode.AUTO);
                container.setMessageListener(message -> counter.done());
                container.afterPropertiesSet();
                container.start();
                return () -> {
                    container.stop();
                    caching.destroy();
                };
            }
        };
    }
}
