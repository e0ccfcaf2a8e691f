package io.github.retrytopology.it.chaos;

import io.github.retrytopology.model.Protocol;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.Tier;
import io.github.retrytopology.model.decision.DelayBackend;
import io.github.retrytopology.runtime.consumer.MessageHandler;
import io.github.retrytopology.runtime.consumer.Routes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The chaos suite's service {@code work} as each delay backend and protocol has it, from code the plugin generated:
 * the same routing key and attempts, retried through tier queues ({@code specs/chaos.yml}), held back by the
 * broker's queue ({@code specs/chaos-broker.yml}), or consumed over AMQP 1.0, each retry held back until the delivery
 * time its consumer gives it, after delays that do not grow linearly ({@code specs/chaos-amqp10.yml}); the last two on
 * RabbitMQ 4.3.1 and later.
 */
enum WorkService {
    TIER_QUEUES(RetryTopology.SPEC, RetryTopology.WORK, RetryTopology.VHOST_DEFINITIONS, RetryTopology.class,
            handler -> WorkHandler.routes(handler::handle)),
    BROKER(io.github.retrytopology.it.chaos.broker.RetryTopology.SPEC,
            io.github.retrytopology.it.chaos.broker.RetryTopology.WORK,
            io.github.retrytopology.it.chaos.broker.RetryTopology.VHOST_DEFINITIONS,
            io.github.retrytopology.it.chaos.broker.RetryTopology.class,
            handler -> io.github.retrytopology.it.chaos.broker.WorkHandler.routes(handler::handle)),
    AMQP10(io.github.retrytopology.it.chaos.amqp10.RetryTopology.SPEC,
            io.github.retrytopology.it.chaos.amqp10.RetryTopology.WORK,
            io.github.retrytopology.it.chaos.amqp10.RetryTopology.VHOST_DEFINITIONS,
            io.github.retrytopology.it.chaos.amqp10.RetryTopology.class,
            handler -> io.github.retrytopology.it.chaos.amqp10.WorkHandler.routes(handler::handle));

    final RetrySpec spec;
    final Service service;
    private final String definitions;
    private final Class<?> generated;
    private final Function<MessageHandler, Routes> routes;

    WorkService(RetrySpec spec, Service service, String definitions, Class<?> generated,
            Function<MessageHandler, Routes> routes) {
        this.spec = spec;
        this.service = service;
        this.definitions = definitions;
        this.generated = generated;
        this.routes = routes;
    }

    /** Its spec's definitions of one virtual host, as the plugin generated them. */
    String definitions() throws IOException {
        try (InputStream in = generated.getResourceAsStream(definitions)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Its routes, all to this handler. */
    Routes routes(MessageHandler handler) {
        return routes.apply(handler);
    }

    /** The queues a message waits in until it succeeds or is parked: the service's own and its tiers. */
    List<String> waitingQueues() {
        List<String> queues = new ArrayList<>(List.of(service.queue()));
        service.tiers().stream().map(Tier::queue).forEach(queues::add);
        return queues;
    }

    /** Its delay backend's name, as the spec writes it. */
    String id() {
        return service.delayBackend().id();
    }

    /** What a chaos run's scenario adds for it: nothing on tier queues, the backend or the protocol otherwise. */
    String label() {
        if (overAmqp10()) {
            return ", over AMQP 1.0";
        }
        return this == TIER_QUEUES ? "" : ", delays by the " + id();
    }

    /** Whether its consumer is an {@code Amqp10RetryingConsumer}, over an AMQP 1.0 connection. */
    boolean overAmqp10() {
        return service.protocol() == Protocol.AMQP_1_0;
    }

    /** Whether the broker counts a crash as one of its attempts: over AMQP 1.0 too, whose delays it holds. */
    boolean brokerCounts() {
        return service.delayBackend() == DelayBackend.BROKER;
    }
}
