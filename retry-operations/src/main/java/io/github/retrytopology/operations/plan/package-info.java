/** Plan and apply: the differences between a spec's topology and a live broker, and the changes that remove them. */
@NullMarked
package io.github.retrytopology.operations.plan;

import org.jspecify.annotations.NullMarked;
