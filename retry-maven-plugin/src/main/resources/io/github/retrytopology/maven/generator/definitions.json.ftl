<#-- RabbitMQ definitions of a topology. Variables: DefinitionsJson.Variables. -->
<#macro settings list><#if list?has_content>{<#list list as setting>${setting.key?c}: ${setting.value?c}<#sep>, </#sep></#list>}<#else>{}</#if></#macro>
<#macro vhostField><#if cluster>
      "vhost": ${vhost?c},
</#if></#macro>
{
<#if cluster>
  "vhosts": [
    {"name": ${vhost?c}}
  ],
</#if>
  "exchanges": [
<#list exchanges as exchange>
    {
      "name": ${exchange.name?c},
<@vhostField/>
      "type": ${exchange.type?c},
      "durable": ${exchange.durable?c},
      "auto_delete": false,
      "internal": false,
      "arguments": {}
    }<#sep>,</#sep>
</#list>
  ],
  "queues": [
<#list queues as queue>
    {
      "name": ${queue.name?c},
<@vhostField/>
      "durable": true,
      "auto_delete": false,
      "arguments": <@settings queue.arguments/>
    }<#sep>,</#sep>
</#list>
  ],
  "bindings": [
<#list bindings as binding>
    {
      "source": ${binding.exchange?c},
<@vhostField/>
      "destination": ${binding.queue?c},
      "destination_type": "queue",
      "routing_key": ${binding.routingKey?c},
      "arguments": {}
    }<#sep>,</#sep>
</#list>
  ],
  "policies": [
<#list policies as policy>
    {
      "name": ${policy.name?c},
<@vhostField/>
      "pattern": ${policy.pattern?c},
      "apply-to": ${policy.applyTo?c},
      "priority": ${policy.priority?c},
      "definition": <@settings policy.definition/>
    }<#sep>,</#sep>
</#list>
  ]
}
