<#-- The handler interface of one service. Variables: HandlerSource.Variables. -->
package ${javaPackage};

<#list imports as imported>
import ${imported};
</#list>

/**
 * Handles the messages of service ${serviceDoc}, which consumes queue ${queueDoc}.
 *
<#list policyDoc as line>
 * <#if line?is_first><p></#if>${line}
</#list>
 *
<#list consumeDoc as line>
 * <#if line?is_first><p></#if>${line}
</#list>
<#if typed>
 *
 * <p>A payload class may be generic: its method takes it raw, as the codec decodes it, so raw types are no warning
 * here.
</#if>
 *
 * <p>Generated from ${sourceDoc}; do not edit.
 */
@${generated}(${generator?c})
<#if typed>
@${suppressWarnings}("rawtypes")
</#if>
public interface ${name} {
<#list methods as method>

    /**
     * Handles the messages routed with ${method.keyDoc}<#if method.typed>, decoded into ${method.payloadDoc}</#if>.
     */
    void ${method.name}(<#if method.typed>${method.payloadType} payload, </#if>${deliveryContext} context) throws ${exception};
</#list>

    /**
     * Routes the messages of this service to {@code ${handler}}: each to the first of its routing keys, in the
     * order the spec lists them, that matches.
     */
    static ${routes} routes(${name} ${handler}) {
        ${routes}.Builder ${builder} = ${routes}.builder(${serviceConstant});
<#list methods as method>
        ${builder}.on(${method.key?c}, <#if method.typed>${method.payloadType}.class, </#if>${handler}::${method.name});
</#list>
        return ${builder}.build();
    }
}
