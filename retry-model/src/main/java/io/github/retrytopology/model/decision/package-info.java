/** The retry decision: what follows each delivery's result, the single copy the runtime applies. */
@NullMarked
package io.github.retrytopology.model.decision;

import org.jspecify.annotations.NullMarked;
