<#-- The class that holds every derived name and each service's model. Variables: TopologySource.Variables. -->
<#macro duration call>${types.duration}.${call.factory}(${call.amount?c})</#macro>
<#macro backoff backoff>
<#if backoff.kind == "none">
                    ${types.backoff}.none(),
<#elseif backoff.kind == "delays" && backoff.multiline>
                    ${types.backoff}.delays(
<#list backoff.delays as delay>
                            <@duration delay/><#sep>,</#sep><#if !delay?has_next>),</#if>
</#list>
<#elseif backoff.kind == "delays">
                    ${types.backoff}.delays(<#list backoff.delays as delay><@duration delay/><#sep>, </#sep></#list>),
<#elseif backoff.kind == "growth">
                    ${types.backoff}.exponential(<@duration backoff.initial/>, new ${types.bigDecimal}(${backoff.multiplier?c})),
<#else>
                    ${types.backoff}.exponential(<@duration backoff.initial/>, new ${types.bigDecimal}(${backoff.multiplier?c}), <@duration backoff.max/>),
</#if>
</#macro>
package ${javaPackage};

<#list imports as imported>
import ${imported};
</#list>

/**
 * Every name and retry policy of the services of exchange ${exchangeDoc}, so that no code
 * writes a queue name.
 *
 * <p>The runtime consumes with the model constants: {@link #SPEC}, and one per service. The nested classes hold
 * each service's queue names as strings.
 *
 * <p>Generated from ${sourceDoc}; do not edit.
 */
@${generated}(${generator?c})
public final class ${name} {

    /** The virtual host. */
    public static final String VHOST = ${vhost?c};

    /** The topic exchange that publishers use. */
    public static final String EXCHANGE = ${exchange?c};

    /**
     * The resource beside this class that holds the definitions for {@code POST /api/definitions},
     * {@code rabbitmqctl import_definitions} and the management UI.
     */
    public static final String DEFINITIONS = ${definitions?c};

    /** The resource beside this class that holds the definitions for {@code POST /api/definitions/{vhost}}. */
    public static final String VHOST_DEFINITIONS = ${vhostDefinitions?c};

    /** The resource beside this class that pictures the topology, as Markdown with a Mermaid diagram. */
    public static final String DIAGRAM = ${diagram?c};
<#list services as service>

    /**
<#list service.policyDoc as line>
     * ${line}
</#list>
     */
    public static final ${types.service} ${service.constant} = new ${types.service}(
            ${service.name?c},
            ${types.list}.of(
<#list service.routes as route>
                    ${types.route}.of(${route.key?c}, ${route.handler?c}<#if route.typed>, ${route.payload?c}</#if>)<#sep>,</#sep><#if !route?has_next>),</#if>
</#list>
            new ${types.retryPolicy}(
                    ${service.maxAttempts?c},
<@backoff service.backoff/>
                    ${types.list}.of(<#list service.nonRetryable as type>${type?c}<#sep>, </#sep></#list>)),
            ${types.queueType}.${service.queueType});
</#list>

    /** The whole spec: every service of the exchange. */
    public static final ${types.retrySpec} SPEC = new ${types.retrySpec}(
            ${javaPackage?c},
            VHOST,
            EXCHANGE,
            ${types.queueSettings}.${queueSettings},
            ${types.list}.of(<#list services as service>${service.constant}<#sep>, </#sep></#list>));
<#list services as service>

    /** The queues of service ${service.nameDoc}. */
    public static final class ${service.nestedClass} {

        /** The queue the service consumes. */
        public static final String QUEUE = ${service.queue?c};
<#list service.tiers as tier>

        /** Tier ${tier.number}: failed messages wait ${tier.delayDoc} here, then return to {@link #QUEUE}. */
        public static final String ${tier.constant} = ${tier.queue?c};
</#list>

        /** Where its messages go when they will not be retried. */
        public static final String PARKING_LOT = ${service.parkingLot?c};

        /** Deliveries in all, the first included. */
        public static final int MAX_ATTEMPTS = ${service.maxAttempts?c};

        private ${service.nestedClass}() {
        }
    }
</#list>

    private ${name}() {
    }
}
