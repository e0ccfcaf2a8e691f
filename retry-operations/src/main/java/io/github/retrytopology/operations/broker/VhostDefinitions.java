package io.github.retrytopology.operations.broker;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.rabbitmq.http.client.domain.BindingInfo;
import com.rabbitmq.http.client.domain.ExchangeInfo;
import com.rabbitmq.http.client.domain.PolicyInfo;
import com.rabbitmq.http.client.domain.QueueInfo;
import com.rabbitmq.http.client.domain.RuntimeParameter;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * One virtual host's definitions, as {@code GET /api/definitions/VHOST} exports them, in Hop's types: Hop exports
 * only every virtual host's at once, and leaves out their policies.
 *
 * @param rabbitVersion the version that exported them, as RabbitMQ 3 names it; may be null
 * @param rabbitmqVersion the same, as RabbitMQ 3.10 and later also name it; may be null
 * @param parameters the runtime parameters: operator policies, shovels, federation upstreams, limits
 */
public record VhostDefinitions(@JsonProperty("rabbit_version") @Nullable String rabbitVersion,
        @JsonProperty("rabbitmq_version") @Nullable String rabbitmqVersion, List<QueueInfo> queues, List<ExchangeInfo> exchanges,
        List<BindingInfo> bindings, List<PolicyInfo> policies, List<RuntimeParameter<Object>> parameters) {

    private static final String OPERATOR_POLICY = "operator_policy";

    public VhostDefinitions {
        queues = copy(queues);
        exchanges = copy(exchanges);
        bindings = copy(bindings);
        policies = copy(policies);
        parameters = copy(parameters);
    }

    private static <T> List<T> copy(@Nullable List<T> items) {
        return items == null ? List.of() : items.stream().filter(Objects::nonNull).toList();
    }

    /** The operator policies, which the definitions hold among their parameters. */
    public List<PolicyInfo> operatorPolicies() {
        return parameters.stream().filter(parameter -> OPERATOR_POLICY.equals(parameter.getComponent()))
                .filter(parameter -> parameter.getValue() instanceof Map<?, ?>)
                .map(parameter -> {
                    PolicyInfo policy = ManagementTransport.JSON.convertValue(parameter.getValue(), PolicyInfo.class);
                    policy.setName(parameter.getName());
                    policy.setVhost(parameter.getVhost());
                    return policy;
                })
                .toList();
    }

    /** The parameters other than operator policies: shovels, federation upstreams, limits. */
    public List<RuntimeParameter<Object>> otherParameters() {
        return parameters.stream().filter(parameter -> !OPERATOR_POLICY.equals(parameter.getComponent())).toList();
    }

    /** The RabbitMQ version that exported them, if they say. */
    public Optional<String> brokerVersion() {
        return Stream.of(rabbitmqVersion, rabbitVersion).filter(version -> version != null && !version.isBlank())
                .findFirst();
    }
}
