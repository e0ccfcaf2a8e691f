<#-- The messaging-topology-operator's resources of a topology, one YAML document each. Variables: KubernetesResources.Variables. -->
<#macro metadataOf resource>
metadata:
  name: ${resource?c}
<#list namespace as name>
  namespace: ${name?c}
</#list>
<#if labels?has_content>
  labels:
<#list labels as label>
    ${label.key?c}: ${label.value?c}
</#list>
</#if>
</#macro>
<#macro clusterReference>
  rabbitmqClusterReference:
<#if cluster.bySecret>
    connectionSecret:
      name: ${cluster.name?c}
<#else>
    name: ${cluster.name?c}
<#list cluster.namespace as name>
    namespace: ${name?c}
</#list>
</#if>
</#macro>
<#macro settingsOf key list>
<#if list?has_content>
  ${key}:
<#list list as setting>
    ${setting.key?c}: ${setting.value?c}
</#list>
</#if>
</#macro>
# Generated from ${source} by ${generator}; do not edit.
# The RabbitMQ messaging-topology-operator's resources of this topology, as definitions.json has it.
<#list vhosts as vhost>
---
apiVersion: ${apiVersion}
kind: Vhost
<@metadataOf vhost.resource/>
spec:
  name: ${vhost.name?c}
  deletionPolicy: ${vhost.deletionPolicy?c}
<@clusterReference/>
</#list>
<#list exchanges as exchange>
---
apiVersion: ${apiVersion}
kind: Exchange
<@metadataOf exchange.resource/>
spec:
  name: ${exchange.name?c}
  vhost: ${exchange.vhost?c}
  type: ${exchange.type?c}
  durable: ${exchange.durable?c}
  autoDelete: false
<@clusterReference/>
</#list>
<#list queues as queue>
---
apiVersion: ${apiVersion}
kind: Queue
<@metadataOf queue.resource/>
spec:
  name: ${queue.name?c}
  vhost: ${queue.vhost?c}
  type: ${queue.type?c}
  durable: true
  autoDelete: false
  deletionPolicy: ${queue.deletionPolicy?c}
<@settingsOf "arguments" queue.arguments/>
<@clusterReference/>
</#list>
<#list policies as policy>
---
apiVersion: ${apiVersion}
kind: Policy
<@metadataOf policy.resource/>
spec:
  name: ${policy.name?c}
  vhost: ${policy.vhost?c}
  pattern: ${policy.pattern?c}
  applyTo: ${policy.applyTo?c}
  priority: ${policy.priority?c}
<@settingsOf "definition" policy.definition/>
<@clusterReference/>
</#list>
<#list bindings as binding>
---
apiVersion: ${apiVersion}
kind: Binding
<@metadataOf binding.resource/>
spec:
  vhost: ${binding.vhost?c}
  source: ${binding.source?c}
  destination: ${binding.destination?c}
  destinationType: "queue"
  routingKey: ${binding.routingKey?c}
<@clusterReference/>
</#list>
<#list permissions as permission>
---
apiVersion: ${apiVersion}
kind: Permission
<@metadataOf permission.resource/>
spec:
  vhost: ${permission.vhost?c}
  user: ${permission.user?c}
  permissions:
    configure: ${permission.configure?c}
    write: ${permission.write?c}
    read: ${permission.read?c}
<@clusterReference/>
</#list>
