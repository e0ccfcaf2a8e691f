package io.github.retrytopology.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.retrytopology.runtime.consumer.GeneratedTopology;
import io.github.retrytopology.spring.example.OrdersHandler;
import io.github.retrytopology.spring.example.RetryTopology;
import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the runtime finds what the plugin generated from the tests' retry.yml, and what it says when it cannot. */
class GeneratedTopologyTest {

    private final ClassLoader loader = getClass().getClassLoader();

    @Test
    void findsTheSpecTheHandlerInterfacesAndTheirRoutesByTheGeneratedResource() {
        URL resource = loader.getResource("META-INF/retry-topology/io.github.retrytopology.spring.example.properties");

        GeneratedTopology topology = GeneratedTopology.load(resource, loader);

        assertThat(topology.spec()).isSameAs(RetryTopology.SPEC);
        assertThat(topology.handlerInterface(RetryTopology.ORDERS)).isEqualTo(OrdersHandler.class);
        assertThat(topology.routes(RetryTopology.ORDERS, new Orders()).service()).isEqualTo(RetryTopology.ORDERS);
    }

    @Test
    void refusesAHandlerOfAnotherService() {
        GeneratedTopology topology = GeneratedTopology.load(RetryTopology.class.getName(), loader);

        assertThatThrownBy(() -> topology.routes(RetryTopology.AUDIT, new Orders()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(Orders.class.getName() + " does not implement "
                        + "io.github.retrytopology.spring.example.AuditHandler");
    }

    @Test
    void saysWhatAResourceLacks(@TempDir Path directory) throws IOException {
        Path empty = Files.writeString(directory.resolve("empty.properties"), "# nothing\n");
        Path missing = Files.writeString(directory.resolve("missing.properties"), "topology=com.acme.Gone\n",
                StandardCharsets.UTF_8);

        assertThatThrownBy(() -> GeneratedTopology.load(empty.toUri().toURL(), loader))
                .hasMessageEndingWith("empty.properties names no topology class: it has no 'topology' key; generate "
                        + "it again with retry-maven-plugin");
        assertThatThrownBy(() -> GeneratedTopology.load(missing.toUri().toURL(), loader))
                .hasMessageContaining("missing.properties: the topology class, com.acme.Gone, is not on the class "
                        + "path");
        assertThatThrownBy(() -> GeneratedTopology.load(String.class.getName(), loader))
                .hasMessage("java.lang.String is not a generated topology class: it has no public SPEC constant");
    }
}
