/**
 * The retrying consumer: handlers run on the connection's dispatch threads, subscriptions on each service's control
 * lane ({@code ControlLane}), settlements after a confirm on its settlement lane ({@code SettlementLane}), and the
 * client's connection thread only hands over ({@code ClientCallbacks}).
 */
@NullMarked
package io.github.retrytopology.runtime.consumer;

import org.jspecify.annotations.NullMarked;
