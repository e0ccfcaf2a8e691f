package io.github.retrytopology.model.read;

import io.github.retrytopology.model.problem.Position;
import java.util.List;

/**
 * A spec as written, before validation: every value is the text the file holds, with its position, and
 * absent keys are {@code null}. Only the validator reads drafts; everyone else sees the validated model.
 *
 * @param start the position of the document
 * @param version {@code version}
 * @param javaPackage {@code package}
 * @param vhost {@code vhost}
 * @param exchange {@code exchange}
 * @param queueSettings {@code queueSettings}
 * @param defaults {@code defaults}; every field null if absent
 * @param services {@code services}, in file order
 */
public record SpecDraft(
        Position start,
        Located<String> version,
        Located<String> javaPackage,
        Located<String> vhost,
        Located<String> exchange,
        Located<String> queueSettings,
        PolicyDraft defaults,
        Located<List<ServiceDraft>> services) {

    /**
     * One service as written.
     *
     * @param name its key under {@code services}
     * @param queue {@code queue}
     * @param routingKeys {@code routingKeys}
     * @param policy its own retry settings
     */
    public record ServiceDraft(Located<String> name, Located<String> queue, Located<List<RouteDraft>> routingKeys,
            PolicyDraft policy) {
    }

    /**
     * One entry of {@code routingKeys}, written either as the key alone or as a mapping.
     *
     * @param key {@code key}, or the entry itself
     * @param handler {@code handler}
     * @param payload {@code payload}
     */
    public record RouteDraft(Located<String> key, Located<String> handler, Located<String> payload) {
    }

    /**
     * The retry settings of {@code defaults} or of one service.
     *
     * @param at where the mapping that holds them starts
     * @param maxAttempts {@code maxAttempts}
     * @param delays {@code delays}
     * @param backoff {@code backoff}
     * @param delayBy {@code delayBy}
     * @param protocol {@code protocol}
     * @param queueType {@code queueType}
     * @param nonRetryable {@code nonRetryable}
     */
    public record PolicyDraft(
            Position at,
            Located<String> maxAttempts,
            Located<List<Located<String>>> delays,
            Located<BackoffDraft> backoff,
            Located<String> delayBy,
            Located<String> protocol,
            Located<String> queueType,
            Located<List<Located<String>>> nonRetryable) {
    }

    /**
     * A {@code backoff} mapping.
     *
     * @param initial {@code initial}
     * @param multiplier {@code multiplier}
     * @param max {@code max}
     */
    public record BackoffDraft(Located<String> initial, Located<String> multiplier, Located<String> max) {
    }
}
