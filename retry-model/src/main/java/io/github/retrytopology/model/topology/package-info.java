/** The RabbitMQ topology a spec derives: queues, exchanges, bindings and policies, with their broker keys. */
package io.github.retrytopology.model.topology;
