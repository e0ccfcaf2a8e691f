package io.github.retrytopology.spring;

import io.github.retrytopology.model.Service;
import io.github.retrytopology.runtime.consumer.Routes;

/**
 * One service to consume: its handler bean's routes, and its consumers' settings.
 *
 * @param beanName the name of the handler bean
 */
record ServiceHandler(Service service, String beanName, Routes routes, RetryProperties.Service settings) {
}
