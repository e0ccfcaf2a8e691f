/** The RabbitMQ topology a spec derives: queues, exchanges, bindings and policies, with their broker keys. */
@NullMarked
package io.github.retrytopology.model.topology;

import org.jspecify.annotations.NullMarked;
