/** The parking-lot client: reading, grouping, replaying and purging parked messages, on the caller's thread. */
package io.github.retrytopology.runtime.parkinglot;
