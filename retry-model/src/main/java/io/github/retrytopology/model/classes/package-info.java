/** Finding the exception classes a spec names as non-retryable on a class path. */
package io.github.retrytopology.model.classes;
