<#-- The resource that names the spec's topology class to code that finds it at run time. Variables: TopologyResource.Variables. -->
# Generated from ${source} by ${generator}; do not edit.
# Names the topology class of package ${javaPackage}, for code that finds the generated handler interfaces at
# run time, such as the Spring Boot starter.
${key}=${topologyClass}
