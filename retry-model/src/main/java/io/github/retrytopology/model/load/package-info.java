/** Loading a retry.yml in one call: read, validate, model; the entry point for tools and tests. */
@NullMarked
package io.github.retrytopology.model.load;

import org.jspecify.annotations.NullMarked;
