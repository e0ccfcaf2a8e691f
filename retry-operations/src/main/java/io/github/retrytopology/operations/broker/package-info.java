/** Reaching a broker: its management API and AMQP connections, and declaring a topology through them. */
@NullMarked
package io.github.retrytopology.operations.broker;

import org.jspecify.annotations.NullMarked;
