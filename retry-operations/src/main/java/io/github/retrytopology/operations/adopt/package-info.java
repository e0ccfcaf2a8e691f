/** Adopting a hand-rolled retry topology: reading it from a broker or a definitions file, and drafting its retry.yml. */
@NullMarked
package io.github.retrytopology.operations.adopt;

import org.jspecify.annotations.NullMarked;
