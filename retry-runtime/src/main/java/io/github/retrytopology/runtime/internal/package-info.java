/**
 * What the runtime's own packages share and no one else should use, in no protocol's terms: how the retry headers
 * change on a failure, a park and a replay ({@code HeaderWriter}), from how a delivery arrived ({@code Arrival}), and
 * what a parking lot's queue must do for the parking-lot client ({@code ParkedQueue}). Not exported.
 */
@NullMarked
package io.github.retrytopology.runtime.internal;

import org.jspecify.annotations.NullMarked;
