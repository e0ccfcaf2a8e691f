/**
 * The runtime's AMQP 0.9.1 side, through RabbitMQ's Java client: what a delivery's envelope and properties become
 * in the protocol-free headers, and back ({@code Received}, {@code Republishing}), and a parking lot's queue read,
 * taken and replayed over channels ({@code ParkingLotQueue}), on the caller's thread with the client's consumer
 * threads handing over what arrives. Not exported: the consumer and the parking lot use it.
 */
@NullMarked
package io.github.retrytopology.runtime.amqp091;

import org.jspecify.annotations.NullMarked;
