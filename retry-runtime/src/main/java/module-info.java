/**
 * What a service embeds: the retrying consumer ({@code consumer}), the retry headers ({@code headers}), payload
 * codecs ({@code codec}), the parking-lot client ({@code parkinglot}), and optional metrics through Micrometer
 * ({@code metrics}) and spans through OpenTelemetry or Micrometer's Observation API ({@code tracing}).
 *
 * <p>RabbitMQ's AMQP 1.0 client, Jackson, Micrometer and OpenTelemetry are optional: a service that uses
 * {@code Amqp10RetryingConsumer} (AMQP 1.0, {@code com.rabbitmq.client:amqp-client} 1.x), {@code JacksonPayloadCodec}
 * (Jackson 2), {@code Jackson3PayloadCodec}, {@code MicrometerRetryMetrics} or {@code OpenTelemetryTracing} brings
 * its own.
 */
module io.github.retrytopology.runtime {
    requires static transitive org.jspecify;
    requires transitive io.github.retrytopology.model;
    requires transitive com.rabbitmq.client;
    requires static com.rabbitmq.client.amqp;
    requires org.slf4j;
    requires static com.fasterxml.jackson.databind;
    requires static tools.jackson.databind;
    requires static tools.jackson.core;
    requires static micrometer.core;
    requires static micrometer.observation;
    requires static io.opentelemetry.api;
    requires static io.opentelemetry.context;

    exports io.github.retrytopology.runtime;
    exports io.github.retrytopology.runtime.codec;
    exports io.github.retrytopology.runtime.consumer;
    exports io.github.retrytopology.runtime.headers;
    exports io.github.retrytopology.runtime.metrics;
    exports io.github.retrytopology.runtime.parkinglot;
    exports io.github.retrytopology.runtime.tracing;
}
