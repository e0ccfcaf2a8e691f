/** Reaching a broker: its management API and AMQP connections, and declaring a topology through them. */
package io.github.retrytopology.operations.broker;
