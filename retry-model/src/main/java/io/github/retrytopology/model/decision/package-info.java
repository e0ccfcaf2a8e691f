/** The retry decision: what follows each delivery's result, the single copy the runtime applies. */
package io.github.retrytopology.model.decision;
