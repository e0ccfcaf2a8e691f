/**
 * The runtime's AMQP 0.9.1 side, through RabbitMQ's Java client: what a delivery's envelope and properties become
 * in the protocol-free headers, and back. Not exported: the consumer and the parking lot use it.
 */
@NullMarked
package io.github.retrytopology.runtime.amqp091;

import org.jspecify.annotations.NullMarked;
