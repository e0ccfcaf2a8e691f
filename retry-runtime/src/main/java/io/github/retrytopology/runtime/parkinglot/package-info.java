/**
 * The parking-lot client: reading, grouping, replaying and purging parked messages, on the caller's thread, in no
 * protocol's terms; {@code ParkingLot.of} opens one over AMQP 0.9.1.
 */
@NullMarked
package io.github.retrytopology.runtime.parkinglot;

import org.jspecify.annotations.NullMarked;
