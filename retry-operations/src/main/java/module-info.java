/**
 * An operator's tools: plan and apply a spec against a live broker ({@code plan}), draft the spec of a retry
 * topology a virtual host already runs and migrate onto it ({@code adopt}), move a queue's messages to another
 * ({@code move}), reach a broker over AMQP and its management API ({@code broker}), and the on-call console in a
 * browser ({@code console}). The command line ({@code cli}) ships whole in the {@code -cli} jar, with the
 * runtime's parking-lot client and picocli, which are optional here, as the console needs the runtime.
 */
module io.github.retrytopology.operations {
    requires static transitive org.jspecify;
    requires transitive io.github.retrytopology.model;
    requires transitive com.rabbitmq.client;
    // RabbitMQ's client of the management API (Hop): ManagementApi returns its types.
    requires transitive com.rabbitmq.http.client;
    requires com.fasterxml.jackson.databind;
    requires java.compiler; // javax.lang.model.SourceVersion, which knows Java's keywords, for drafted names
    requires java.net.http;
    requires jdk.httpserver;
    requires org.slf4j;
    requires static io.github.retrytopology.runtime;
    requires static info.picocli;

    exports io.github.retrytopology.operations.adopt;
    exports io.github.retrytopology.operations.broker;
    exports io.github.retrytopology.operations.console;
    exports io.github.retrytopology.operations.move;
    exports io.github.retrytopology.operations.plan;

    opens io.github.retrytopology.operations.cli to info.picocli;
    // Jackson writes the console's pages' data from its records.
    opens io.github.retrytopology.operations.console to com.fasterxml.jackson.databind;
}
