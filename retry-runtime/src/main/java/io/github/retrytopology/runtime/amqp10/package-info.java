/**
 * The runtime's AMQP 1.0 side, through RabbitMQ's AMQP 1.0 Java client: what a delivery's annotations, properties
 * and application properties become in the protocol-free headers, and the message that parks one
 * ({@code Amqp10Messages}), on the thread of the consumer that calls it. Not exported: the consumer uses it.
 */
@NullMarked
package io.github.retrytopology.runtime.amqp10;

import org.jspecify.annotations.NullMarked;
