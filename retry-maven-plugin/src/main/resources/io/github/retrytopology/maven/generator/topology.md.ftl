<#-- A picture of the topology, as Markdown with a Mermaid flowchart. Variables: TopologyDiagram.Variables. -->
# Retry topology of ${title}

Generated from ${source}; do not edit. Solid arrows are routing, dotted ones are failures and retries.

```mermaid
flowchart LR
    exchange(["${exchangeLabel}"])
<#list services as service>
    ${service.id}["${service.label}"]
    exchange -- "${service.bindingLabel}" --> ${service.id}
<#list service.tiers as tier>
    ${tier.id}[("${tier.label}")]
    ${service.id} -. "${tier.retryLabel}" .-> ${tier.id}
    ${tier.id} -. "${tier.returnLabel}" .-> ${service.id}
</#list>
<#if service.brokerDelayLabel?has_content>
    ${service.id} -. "${service.brokerDelayLabel}" .-> ${service.id}
</#if>
    ${service.id}_parking[("${service.parkingLotLabel}")]
    ${service.id} -. "${service.parkLabel}" .-> ${service.id}_parking
</#list>
```

| Service | Routing keys | Max attempts | Delays | Queue type | Parking lot |
|---|---|---|---|---|---|
<#list services as service>
| <#list service.row as cell>${cell}<#sep> | </#sep></#list> |
</#list>
