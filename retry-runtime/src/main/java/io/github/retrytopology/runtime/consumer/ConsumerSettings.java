package io.github.retrytopology.runtime.consumer;

import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.Tier;
import io.github.retrytopology.model.decision.RetryPolicy;
import io.github.retrytopology.runtime.codec.PayloadCodec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * What one service's consumers are configured with, fixed when they start; every thread reads it.
 *
 * @param tiers the service's tiers, tier 1 first, as the model derives them
 * @param tierQueues their queues' names, which tell a message back from a retry
 * @param prefetch each consumer's prefetch once no longer cautious
 * @param consumers how many consumers, each with a channel of its own
 */
record ConsumerSettings(Service service, RetryPolicy policy, List<Tier> tiers, Set<String> tierQueues, Routes routes,
        PayloadCodec codec, Listeners listeners, Clock clock, Ticker ticker, Duration confirmTimeout, int prefetch,
        int consumers) {

    ConsumerSettings {
        tiers = List.copyOf(tiers);
        tierQueues = Set.copyOf(tierQueues);
    }

    static ConsumerSettings of(Routes routes, PayloadCodec codec, Listeners listeners, Clock clock, Ticker ticker,
            Duration confirmTimeout, int prefetch, int consumers) {
        Service service = routes.service();
        List<Tier> tiers = service.tiers();
        return new ConsumerSettings(service, service.retryPolicy(), tiers,
                Set.copyOf(tiers.stream().map(Tier::queue).toList()), routes, codec, listeners, clock, ticker,
                confirmTimeout, prefetch, consumers);
    }

    /** The tier with this number, from 1. */
    Tier tier(int number) {
        return tiers.get(number - 1);
    }

    /** The wall clock's time to the millisecond, as headers keep it: cheaper to read than the clock's instant. */
    Instant now() {
        return Instant.ofEpochMilli(clock.millis());
    }
}
