package io.github.retrytopology.spring;

import io.github.retrytopology.runtime.testing.Broker;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/** An application with no beans of its own; each test adds its handlers. */
@SpringBootConfiguration
@EnableAutoConfiguration
public class TestApplication {

    /** The properties that point an application at a test virtual host and declare the topology there. */
    static List<String> brokerProperties(TestVhost vhost) {
        Broker broker = vhost.broker();
        List<String> properties = new ArrayList<>();
        properties.add("spring.rabbitmq.addresses=" + broker.amqpUri(vhost.name()));
        properties.add("retry.declare-topology=true");
        properties.add("retry.management.url=" + broker.managementUri());
        properties.add("retry.services.audit.enabled=false");
        return properties;
    }
}
