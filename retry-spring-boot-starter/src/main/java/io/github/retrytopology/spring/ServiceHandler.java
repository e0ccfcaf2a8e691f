package io.github.retrytopology.spring;

import io.github.retrytopology.model.Service;
import io.github.retrytopology.runtime.GeneratedTopology;
import io.github.retrytopology.runtime.consumer.Routes;

/**
 * One service to consume: the generated code it comes from, its handler bean, and its consumers' settings.
 *
 * @param beanName the name of the handler bean
 */
record ServiceHandler(GeneratedTopology topology, Service service, String beanName, Object handler,
        RetryProperties.Service settings) {

    Routes routes() {
        return topology.routes(service, handler);
    }
}
