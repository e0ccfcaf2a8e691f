<#-- The class that holds every derived name and each service's model. Variables: TopologySource.Variables. -->
package ${javaPackage};

<#list imports as imported>
import ${imported};
</#list>

/**
 * Every name and retry policy of the services of exchange ${exchangeDoc}, so that no code
 * writes a queue name.
 *
 * <p>The runtime consumes with the model constants: {@link #SPEC}, and one per service, which the spec's own
 * reader builds from the text of the spec when this class is initialized. The nested classes hold each service's
 * queue names as strings.
 *
 * <p>Generated from ${sourceDoc}; do not edit.
 */
@${generated}(${generator?c})
public final class ${name} {

    /** The virtual host. */
    public static final ${types.string} VHOST = ${vhost?c};

    /** The topic exchange that publishers use. */
    public static final ${types.string} EXCHANGE = ${exchange?c};

    /**
     * The resource beside this class that holds the definitions for {@code POST /api/definitions},
     * {@code rabbitmqctl import_definitions} and the management UI.
     */
    public static final ${types.string} DEFINITIONS = ${definitions?c};

    /** The resource beside this class that holds the definitions for {@code POST /api/definitions/{vhost}}. */
    public static final ${types.string} VHOST_DEFINITIONS = ${vhostDefinitions?c};

    /** The resource beside this class that pictures the topology, as Markdown with a Mermaid diagram. */
    public static final ${types.string} DIAGRAM = ${diagram?c};

    /** The whole spec: every service of the exchange. */
    public static final ${types.retrySpec} SPEC =
            ${types.specs}.parse(spec().getBytes(${types.standardCharsets}.UTF_8), ${sourceName?c});
<#list services as service>

    /**
<#list service.policyDoc as line>
     * ${line}
</#list>
     */
    public static final ${types.service} ${service.constant} = SPEC.service(${service.name?c});
</#list>
<#list services as service>

    /** The queues of service ${service.nameDoc}. */
    public static final class ${service.nestedClass} {

        /** The queue the service consumes. */
        public static final ${types.string} QUEUE = ${service.queue?c};
<#list service.tiers as tier>

        /** Tier ${tier.number}: failed messages wait ${tier.delayDoc} here, then return to {@link #QUEUE}. */
        public static final ${types.string} ${tier.constant} = ${tier.queue?c};
</#list>

        /** Where its messages go when they will not be retried. */
        public static final ${types.string} PARKING_LOT = ${service.parkingLot?c};

        /** Deliveries in all, the first included. */
        public static final int MAX_ATTEMPTS = ${service.maxAttempts?c};

        /** The protocol its consumer speaks, as the spec writes it: {@code amqp-0.9.1} or {@code amqp-1.0}. */
        public static final ${types.string} PROTOCOL = ${service.protocol?c};

        private ${service.nestedClass}() {
        }
    }
</#list>

    private ${name}() {
    }

    /** The text of ${sourceDoc} as it was generated from, in pieces that each fit a class file's constant. */
    private static ${types.string} spec() {
        return ${types.string}.join("",
<#list specPieces as piece>
<#list piece as line>
                <#if line?is_first>  <#else>+ </#if>${line?c}<#if !line?has_next><#if piece?has_next>,<#else>);</#if></#if>
</#list>
</#list>
    }
}
