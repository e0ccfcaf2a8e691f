/** Finding the exception classes a spec names as non-retryable on a class path. */
@NullMarked
package io.github.retrytopology.model.classes;

import org.jspecify.annotations.NullMarked;
